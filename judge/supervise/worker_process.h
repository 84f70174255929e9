// SPDX-License-Identifier: MIT
#pragma once
// Theory of operation (isolate's habit: say who the processes are and who kills whom).
//
//   judge (supervisor)                          worker (`judge __worker`, one at a time)
//     fd req_w  ──── frames: init/load/case ──>  fd 3
//     fd resp_r <─── frames: progress/done/fault  fd 4
//     fd out_r  <─── the worker's stdout         fd 1   (captured, capped)
//     fd err_r  <─── the worker's stderr         fd 2   (captured, capped)
//
// The worker is the only process that loads submission code. It runs in its own process group
// and dies with the judge (PR_SET_PDEATHSIG). The judge waits for each frame with a deadline;
// at a deadline it SIGKILLs the whole group: a running CUDA kernel cannot be stopped from the
// host, and only ending the process frees the GPU. A dead worker is never reused.
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "judge/protocol/frame.h"
#include "judge/util/expected.h"

namespace judge {

struct WorkerLaunch {
  std::vector<std::string> argv;        // argv[0] is the program
  std::vector<std::string> env;         // the whole environment ("K=V"); empty: inherit
  size_t output_cap_bytes = 64 * 1024;  // kept of each of stdout and stderr
  uint64_t max_blob_bytes = 1 << 30;
  const std::atomic<bool>* interrupted = nullptr;  // Next() returns kInterrupted once set
  size_t output_limit_bytes = 0;                   // stdout+stderr beyond this: kOutputLimit (0: none)
  uint64_t memory_limit_bytes = 0;                 // resident memory beyond this: kMemoryLimit (0: none)
  // argv[0] is a tool (ncu, compute-sanitizer) that runs the worker as its child: the resident sets
  // of the process and all its descendants count together, or the worker would go unwatched.
  bool watch_descendants = false;
};

struct WorkerEvent {
  enum class Kind { kFrame, kTimeout, kExited, kBroken, kInterrupted, kOutputLimit, kMemoryLimit };
  Kind kind = Kind::kBroken;
  Frame frame;         // kFrame
  int exit_code = -1;  // kExited, when not signaled
  int signal = 0;      // kExited by a signal
  std::string error;   // kBroken: why the stream is unusable
  static WorkerEvent Of(Kind k) {
    WorkerEvent e;
    e.kind = k;
    return e;
  }
  static WorkerEvent WithFrame(Frame f) {
    WorkerEvent e = Of(Kind::kFrame);
    e.frame = std::move(f);
    return e;
  }
  static WorkerEvent Broken(std::string why) {
    WorkerEvent e = Of(Kind::kBroken);
    e.error = std::move(why);
    return e;
  }
};

struct CapturedStream {
  std::string text;
  size_t total_bytes = 0;
  bool truncated() const { return total_bytes > text.size(); }
};

// What the result pipe is asked to hold (F_SETPIPE_SZ).
inline constexpr int kResultPipeBytes = 1 << 20;

class WorkerProcess {
 public:
  static Expected<std::unique_ptr<WorkerProcess>> Spawn(const WorkerLaunch& launch);
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  Status Send(const Json& header);
  // The next frame, or the worker's death, or a timeout after `timeout_seconds`.
  WorkerEvent Next(double timeout_seconds);
  // SIGKILL the worker's process group and reap it.
  void Kill();
  // Whose stop flag Next() watches: a worker started ahead serves a run other than the one that
  // started it, and must not watch (or outlive) that run's flag.
  void SetInterrupted(const std::atomic<bool>* interrupted) { interrupted_ = interrupted; }
  // Closes the request pipe (the worker exits on end of stream) and reaps, killing after `grace`.
  void Finish(double grace_seconds = 2.0);

  // Reads whatever stdout/stderr text is already in the pipes, without waiting.
  void DrainOutput();
  const CapturedStream& captured_stdout() const { return out_; }
  const CapturedStream& captured_stderr() const { return err_; }
  pid_t pid() const { return pid_; }
  uint64_t peak_rss_bytes() const { return peak_rss_; }

 private:
  WorkerProcess() = default;
  WorkerEvent Reap(double wait_seconds);
  uint64_t ResidentBytes();
  void Capture(int& fd, CapturedStream& stream);  // closes and clears fd at end of stream
  void CloseAll();

  pid_t pid_ = -1;
  bool reaped_ = false;
  int req_w_ = -1, resp_r_ = -1, out_r_ = -1, err_r_ = -1;
  size_t cap_ = 0;
  const std::atomic<bool>* interrupted_ = nullptr;
  size_t output_limit_ = 0;
  uint64_t memory_limit_ = 0;
  bool watch_descendants_ = false;
  uint64_t peak_rss_ = 0;
  std::unique_ptr<FrameDecoder> decoder_;
  std::chrono::steady_clock::time_point next_memory_check_{};
  CapturedStream out_, err_;
};

}  // namespace judge

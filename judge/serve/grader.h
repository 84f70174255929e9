// SPDX-License-Identifier: MIT
#pragma once
// The service's graders: they take jobs from the Store's queue and grade them as `judge batch`
// grades files, compiles on a pool of CPU threads and one runner per GPU.
//
//   compile thread:  Claim (lease) -> the source written to DIR/work/<id>/ -> status compiling ->
//                    BuildOnly into the compile cache -> the run queue (bounded: a host claims only
//                    what its GPUs will reach soon, so other hosts of a shared queue get the rest)
//   runner (per GPU): status running, progress per case -> RunSubmission (a cache hit) ->
//                    Finish under the lease -> the work folder removed
//   heartbeat:       extends this grader's leases every third of the lease
//
// A grading whose lease is lost (rejudged, or a pause so long that another host took the job) is
// interrupted and its result dropped: the holder of the current lease records the one result.
// Stop() interrupts the gradings in hand and gives their jobs back to the queue; a killed process
// cannot, so Start() first gives back every job held under this grader's name, and other hosts get
// them when their lease runs out.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "judge/run/run_pipeline.h"
#include "judge/serve/store.h"

namespace judge::serve {

// The lease a job is claimed under, and how often the graders look at the queue when nobody wakes
// them (a submission to another host of a shared queue, a lease that ran out).
inline constexpr double kDefaultLeaseSeconds = 60;
inline constexpr double kQueuePollSeconds = 1.0;

struct GraderOptions {
  RunOptions base;          // root, device, cache, measurement; problem and submission per job
  std::string work_dir;     // DIR/work: a job's source lies in work/<id>/ while it is graded
  std::string worker_name;  // this grader in the queue (unique per service process of a shared queue)
  double lease_seconds = kDefaultLeaseSeconds;
  int compile_jobs = 0;                       // 0: the CPU's threads
  std::shared_ptr<const DeviceFacts> device;  // probed once by the service
};

// What the store keeps of a finished grading: the verdict's code, the ranked figure and the report.
Result ResultOf(const RunReport& report);
// A grading the judge could not finish (its own fault): IE with the reason, never the student's.
Result JudgeFaultResult(const std::string& problem, const std::string& why);
// "case 3/42 perf_4m AC": the progress a student sees while the runner works.
std::string CaseProgress(size_t index, size_t total, const std::string& name, std::string_view verdict);

class Grader {
 public:
  Grader(Store& store, GraderOptions options);
  ~Grader();  // Stop()
  Grader(const Grader&) = delete;
  Grader& operator=(const Grader&) = delete;

  Status Start();
  void Wake();  // a submission was queued: look now
  void Stop();

 private:
  struct Held;  // a claimed job on its way through this grader
  void CompileLoop();
  void RunLoop(int gpu);
  void HeartbeatLoop();
  void Grade(Held& held, int gpu);
  bool Stopping() const { return stopping_.load(); }

  Store& store_;
  GraderOptions options_;
  int runners_ = 1;
  std::string target_;
  std::atomic<bool> stopping_{false};
  std::mutex mu_;
  std::condition_variable queue_changed_;  // a job queued in the store, or room in run_queue_
  std::condition_variable ready_to_run_;   // run_queue_ has a job (only runners wait on it)
  std::condition_variable stopped_;        // Stop() was called: ends the heartbeat's sleep
  int wakes_ = 0;                          // Wake() calls not yet seen by a compile thread
  std::deque<std::shared_ptr<Held>> run_queue_;
  size_t waiting_to_run_ = 0;                   // claimed (compiling or in run_queue_) and not yet taken by a runner
  std::vector<std::shared_ptr<Held>> in_hand_;  // claimed and not finished: interrupted by Stop()
  std::vector<std::thread> threads_;
};

}  // namespace judge::serve

// SPDX-License-Identifier: MIT
#pragma once
// Drives the worker through the cases of one submission and turns what comes back into verdicts.
// The judge computes expected values; the worker only ever sees inputs. Whose fault a failure is
// follows from where it happened: a setup fault reported by the worker's own checked calls is IE,
// anything from the first solve() on (crash, exit, CUDA error, hang) is the submission's.
#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "judge/problem/problem.h"
#include "judge/protocol/messages.h"
#include "judge/core/run_report.h"
#include "judge/sandbox/sandbox.h"
#include "judge/check/case_preparation.h"
#include "judge/supervise/worker_ahead.h"
#include "judge/supervise/worker_process.h"

namespace judge {

struct SupervisorConfig {
  std::string worker_program;   // the judge executable; run as `worker_program __worker`
  DeviceKind device_kind = DeviceKind::kCuda;
  std::string library_path;     // the built submission
  size_t output_cap_bytes = 64 * 1024;
  const std::atomic<bool>* interrupted = nullptr;  // set by SIGINT/SIGTERM
  double plausible_gbps = 0;       // a result above this is implausible (0: unknown)
  std::string plausible_basis;     // where that bound comes from, for the flag's text
  bool sandbox = true;
  std::vector<std::string> wrapper;  // runs the worker under this (compute-sanitizer ...)
  bool single_call = false;          // one call per case, no timing (sanitizer runs)
  double finish_grace_seconds = 2;   // how long a finished worker may take to exit
  double time_scale = 1;             // multiplies the per-call and setup limits
  bool hot = false;                  // performance cases also get hot (no flush) samples
  std::string flush = "read";        // how the L2 is evicted before cold calls: read | write
  double window_correction_ms = 0;   // subtracted from every timed call (DeviceInfo::empty_window_ms)
  // Performance cases are timed in this many worker processes, one after another, and their samples
  // pooled: each process (CUDA context) has an offset of its own (+-1.5% at N = 4M on the H200).
  int timing_processes = 1;
  int visible_device = -1;           // >= 0: the worker sees only this GPU (CUDA_VISIBLE_DEVICES)
  // Starts workers ahead and lets them exit in the background (shared by the runs of a ladder,
  // batch or comparison); null: every worker starts and exits in line.
  std::shared_ptr<WorkerAhead> ahead;
};

class Supervisor {
 public:
  Supervisor(const Problem& problem, SupervisorConfig config);
  ~Supervisor();
  // Starts a worker and asks it to open the device: the no-GPU check, done before compiling.
  Expected<DeviceInfo> ProbeDevice();
  // A throw-away worker measures the device's read ceiling (GB/s); no submission code is involved.
  Expected<ReadCeiling> MeasureCeiling();
  CaseResult RunCase(const PreparedCase& c);
  // What the sandbox achieved in the last worker that loaded the submission.
  const SandboxReport& protections() const { return protections_; }

 private:
  struct Failure {
    Verdict verdict;
    std::string detail;
  };
  struct Outcome {  // one case request's answer
    std::optional<Failure> failure;
    CaseReport report;
    std::string outputs;
    std::vector<int> call_process;  // which worker process made each call (empty: all the first)
  };
  Expected<Frame> AskTrustedWorker(const Json& request, const std::string& want);
  std::optional<Failure> EnsureWorker();
  WorkerRecipe Recipe() const;
  Status CopyLibrary() const;  // into the worker's folder
  // Sends `request` (unless null) and waits for a `want` frame.
  std::optional<Failure> Converse(const Json& request, const std::string& want, Frame* reply, double timeout);
  Outcome Request(const PreparedCase& c, const CaseRequest& request);
  void Judge(const PreparedCase& c, const Outcome& outcome, CaseResult& result);
  void Diagnose(const PreparedCase& c, CaseResult& result);
  // One diagnostic call in another mode; nullopt when it did not even run cleanly.
  std::optional<CheckResult> Rerun(const PreparedCase& c, const CaseRequest& request);
  void MeasureTiming(const Outcome& outcome, CaseResult& result) const;
  // What the submission printed during one case, which may outlive a worker (--timing-processes).
  struct Printed {
    std::string out, err;               // from the case's workers already gone
    size_t out_mark = 0, err_mark = 0;  // where the case starts in the current worker's capture
  };
  // Times a performance case again in fresh worker processes (config_.timing_processes in all)
  // and appends their calls; a failure there is the case's failure.
  void TimeInMoreProcesses(const PreparedCase& c, const CaseRequest& request, Outcome* outcome, Printed* printed);
  Failure Death(const WorkerEvent& ev, const std::string& when);
  void Discard();  // kills the worker, keeping its captured output for the case
  void Retire();   // lets a healthy worker exit, so the next request starts a fresh one

  const Problem& problem_;
  SupervisorConfig config_;
  std::unique_ptr<WorkerProcess> worker_;
  std::optional<Failure> load_failure_;  // a library that cannot load fails every case the same way
  std::string last_stdout_, last_stderr_;
  bool last_truncated_ = false;
  std::string scratch_;  // the current worker's private folder
  SandboxReport protections_;
};

CaseRequest BuildCaseRequest(const Problem& problem, const PreparedCase& c);

}  // namespace judge

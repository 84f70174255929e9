// SPDX-License-Identifier: MIT
#pragma once
// Runs the cases of one submission in a worker and turns what comes back into results. The
// judge computes expected values; the worker only ever sees inputs. The mechanism (the process,
// its messages, deadlines, kill) is supervise/WorkerSession's; every decision about what a
// failure, an output or a time means is a pure function of judge/rules/. What stays here is the
// order of things: start, load, ask, rerun to diagnose, time in more processes.
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "judge/check/case_preparation.h"
#include "judge/core/run_report.h"
#include "judge/problem/problem.h"
#include "judge/protocol/messages.h"
#include "judge/rules/case_verdict.h"
#include "judge/sandbox/sandbox.h"
#include "judge/supervise/gpu_turns.h"
#include "judge/supervise/worker_ahead.h"
#include "judge/supervise/worker_session.h"

namespace judge {

// The judge's own share of a fresh call on a case (CaseRunner::CalibrateFresh: its median and
// spread, ms), by case and GPU. It is the judge's, the machine's and the case's shape's, never the
// submission's, so the runs of a ladder, check-problem or batch measure it once per case: each
// measurement is half a second of the GPU's exclusive turn on the H200 at 2^26 elements.
class ClockCalibrations {
 public:
  std::optional<std::pair<double, double>> Find(const std::string& key) const;
  void Remember(const std::string& key, std::pair<double, double> calibration);

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::pair<double, double>> known_;
};

struct CaseRunnerConfig {
  std::string worker_program;  // the judge executable; run as `worker_program __worker`
  DeviceKind device_kind = DeviceKind::kCuda;
  std::string library_path;  // the built submission
  size_t output_cap_bytes = 64 * 1024;
  const std::atomic<bool>* interrupted = nullptr;  // set by SIGINT/SIGTERM
  double plausible_gbps = 0;                       // a result above this is implausible (0: unknown)
  Ceilings ceilings;                               // this GPU's, for the roofline figures
  std::string plausible_basis;                     // where that bound comes from, for the flag's text
  bool sandbox = true;
  std::vector<std::string> wrapper;  // runs the worker under this (compute-sanitizer ...)
  // The sandbox layers a wrapped worker leaves out, unless $JUDGE_SANITIZER_SKIP names others: the
  // tool's injected library reports to its front end through a socket in the front end's network
  // namespace. The profiler may leave out more (ProfilerSkippedLayers).
  std::vector<std::string> wrapper_skip = {"network_namespace"};
  bool single_call = false;            // one call per case, no timing (sanitizer runs)
  bool profile = false;                // that call inside the profiler's range (judge profile)
  double finish_grace_seconds = 2;     // how long a finished worker may take to exit
  double time_scale = 1;               // multiplies the per-call and setup limits
  bool hot = false;                    // performance cases also get hot (no flush) samples
  FlushMode flush = FlushMode::kRead;  // how the L2 is evicted before cold calls
  double window_correction_ms = 0;     // subtracted from every timed call (DeviceInfo::empty_window_ms)
  // Performance cases are timed in this many worker processes, one after another, and their samples
  // pooled: each process (CUDA context) has an offset of its own (+-1.5% at N = 4M on the H200).
  int timing_processes = 1;
  int visible_device = -1;  // >= 0: the worker sees only this GPU (CUDA_VISIBLE_DEVICES)
  // Starts workers ahead and lets them exit in the background (shared by the runs of a ladder,
  // batch or comparison); null: every worker starts and exits in line.
  std::shared_ptr<WorkerAhead> ahead;
  // Runs judged side by side take turns on the GPU (supervise/gpu_turns.h); null: this run alone.
  std::shared_ptr<GpuTurns> turns;
  std::shared_ptr<ClockCalibrations> calibrations;  // shared by many runs; null: each case calibrates
  // Fresh timed inputs: their seeds come from this secret, and the reference checks a few of those
  // calls after the case. Without a reference, performance cases keep the rotating variants only.
  const Reference* reference = nullptr;
  uint64_t run_secret = 0;
};

class CaseRunner {
 public:
  CaseRunner(const Problem& problem, CaseRunnerConfig config);
  // Its workers exit in a shared turn: a CUDA context's teardown is GPU work.
  ~CaseRunner();
  CaseRunner(const CaseRunner&) = delete;
  CaseRunner& operator=(const CaseRunner&) = delete;
  // `check_only`: a performance case of a run already rejected (rules/run_verdict.h
  // FirstRejection) runs as a correctness case: the functional timing policy, no fresh inputs.
  CaseResult RunCase(const PreparedCase& c, bool check_only = false);
  // What the sandbox achieved in the last worker that loaded the submission.
  const SandboxReport& protections() const { return protections_; }

  struct FreshCall {  // a timed call whose inputs came from seeds sent when it started
    int call = 0;     // index into the report's calls
    std::vector<uint64_t> seeds;
    double judge_ms = 0;  // the judge's clock, from sending the seeds to the call's outputs
    // Its outputs: every call's when they are small, else only those of the calls the judge drew
    // (the reservoir, FetchSlot), once CollectKept has them; empty otherwise.
    std::string outputs;
    std::optional<uint64_t> digest;  // large outputs: what the worker said they were when the call ended
  };

 private:
  struct Outcome {  // one case request's answer
    std::optional<Failure> failure;
    CaseReport report;
    std::string outputs;
    std::vector<int> call_process;  // which worker process made each call (empty: all the first)
    std::vector<FreshCall> fresh;
    std::vector<size_t> kept;  // by slot: the fresh calls whose outputs the worker keeps (indices into fresh)
  };
  WorkerRecipe Recipe() const;
  std::optional<Failure> EnsureWorker();
  std::optional<Failure> Load();
  Status CopyLibrary() const;  // into the worker's folder
  // `on_sampled` runs when the worker says the timed calls are over (before its case_done).
  Outcome Request(const PreparedCase& c, const CaseRequest& request, const std::function<void()>& on_sampled = {});
  // Talks `request` through with the worker of `session` (the submission's, or the trusted one).
  Outcome Exchange(WorkerSession& session, const CaseRequest& request, bool submission_loaded,
                   const std::function<void()>& on_sampled = {});
  // The judge's clock on the same case with an empty solve() in a worker that never loaded a
  // submission: the judge's own share of a fresh call (median, ms), and its spread; nullopt when
  // that worker failed (then the case's judge-clock check is skipped, and the report says so).
  std::optional<std::pair<double, double>> CalibrateFresh(const CaseRequest& request);
  // A large fresh call's progress: whether the worker keeps its outputs (the reservoir of calls to
  // check), and in which slot. A failure ends the exchange.
  std::optional<Failure> MaybeFetch(WorkerSession& session, const CaseRequest& request, uint64_t request_id,
                                    std::vector<FreshCall>& fresh, std::vector<size_t>& reservoir);
  // The kept outputs of `outcome`'s calls, asked for once its timed calls are over and each held to
  // the digest its progress carried (a no-op when none were kept). A failure ends the exchange.
  std::optional<Failure> CollectKept(WorkerSession& session, const CaseRequest& request, Outcome* outcome);
  // Checks a few fresh calls' outputs with the reference; a failure is the case's verdict.
  void CheckFreshCalls(const PreparedCase& c, const Outcome& outcome, CaseResult& result);
  // One call's outputs against one variant's expected ones, by the problem's check (its own
  // checker for "reference": a child process of the reference, on the case's inputs made again).
  std::pair<CheckResult, std::string> CheckOneCall(const Case& inputs, const ExpectedOutputs& expected,
                                                   std::string_view bytes) const;
  // `timed`: the case's timed calls were just made, and the runner holds no turn (RunCase).
  void Judge(const PreparedCase& c, const Outcome& outcome, const std::optional<std::pair<double, double>>& calibration,
             bool timed, CaseResult& result);
  // Host work after a timed case, beside other runs' timed calls: on a thread at kBesideTimingNice
  // when `apart` and runs take turns, else here. It must start no worker.
  template <typename F>
  void BesideTimedCalls(bool apart, F work);
  // A shared turn when `needed` (GPU work where the runner holds no turn), else an empty one.
  GpuTurns::Turn SharedTurnIf(bool needed);
  bool WantsFreshInputs(const PreparedCase& c) const;
  // One diagnostic call in another mode; nullopt when it did not even run cleanly.
  std::optional<CheckResult> Rerun(const PreparedCase& c, const CaseRequest& request);
  // Times a performance case again in fresh worker processes (config_.timing_processes in all)
  // and appends their calls; a failure there is the case's failure.
  void TimeInMoreProcesses(const PreparedCase& c, const CaseRequest& request, Outcome* outcome);

  const Problem& problem_;
  CaseRunnerConfig config_;
  WorkerSession session_;
  WorkerSession trusted_;                // never loads a submission: calibrates the judge's clock
  uint64_t requests_ = 0;                // every request gets its own fresh seeds
  FetchPlan fetch_plan_;                 // the large fresh calls of the request in flight to fetch
  double case_flops_ = 0;                // the case being run: its floating-point work a call (roofline)
  std::optional<Failure> load_failure_;  // a library that cannot load fails every case the same way
  SandboxReport protections_;
};

CaseRequest BuildCaseRequest(const Problem& problem, const PreparedCase& c);

// Starts a worker and asks it to open the device: the no-GPU check, done before compiling.
Expected<DeviceInfo> ProbeDevice(const std::string& worker_program, DeviceKind device,
                                 const std::atomic<bool>* interrupted);
// A throw-away worker measures the device's ceilings; no submission code is involved.
Expected<Ceilings> MeasureCeiling(const std::string& worker_program, DeviceKind device,
                                  const std::atomic<bool>* interrupted);

}  // namespace judge

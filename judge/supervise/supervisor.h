// SPDX-License-Identifier: MIT
#pragma once
// Drives the worker through the cases of one submission and turns what comes back into verdicts.
// The judge computes expected values; the worker only ever sees inputs. Whose fault a failure is
// follows from where it happened: a setup fault reported by the worker's own checked calls is IE,
// anything from the first solve() on (crash, exit, CUDA error, hang) is the submission's.
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "judge/problem/problem.h"
#include "judge/problem/reference.h"
#include "judge/protocol/messages.h"
#include "judge/report/run_report.h"
#include "judge/supervise/worker_process.h"

namespace judge {

struct SupervisorConfig {
  std::string worker_program;   // the judge executable; run as `worker_program __worker`
  std::string device_kind;      // "cuda" | "host"
  std::string library_path;     // the built submission
  size_t output_cap_bytes = 64 * 1024;
  const std::atomic<bool>* interrupted = nullptr;  // set by SIGINT/SIGTERM
};

class Supervisor {
 public:
  Supervisor(const Problem& problem, SupervisorConfig config);
  ~Supervisor();
  // Starts a worker and asks it to open the device: the no-GPU check, done before compiling.
  Expected<DeviceInfo> ProbeDevice();
  CaseResult RunCase(const Case& c, const ExpectedOutputs& expected);

 private:
  struct Failure {
    Verdict verdict;
    std::string detail;
  };
  std::optional<Failure> EnsureWorker();
  std::optional<Failure> Converse(const Json& request, const std::string& want, Frame* reply, double timeout);
  void RunLoadedCase(const Case& c, const ExpectedOutputs& expected, CaseResult& result);
  void Judge(const Frame& done, const ExpectedOutputs& expected, CaseResult& result);
  Failure Death(const WorkerEvent& ev, const std::string& when);
  void Retire();  // ends the worker and keeps its captured output for the case

  const Problem& problem_;
  SupervisorConfig config_;
  std::unique_ptr<WorkerProcess> worker_;
  std::optional<Failure> load_failure_;  // a library that cannot load fails every case the same way
  std::string last_stdout_, last_stderr_;
  bool last_truncated_ = false;
};

CaseRequest BuildCaseRequest(const Problem& problem, const Case& c);

}  // namespace judge

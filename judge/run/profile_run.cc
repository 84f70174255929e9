// SPDX-License-Identifier: MIT
#include "judge/run/profile_run.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "judge/profile/metrics.h"
#include "judge/profile/ncu_csv.h"
#include "judge/rules/run_verdict.h"
#include "judge/sandbox/sandbox.h"
#include "judge/util/fs.h"
#include "judge/util/subprocess.h"

namespace judge {
namespace {

// ncu replays each kernel once per pass of its metrics (tens of passes for the judge's set) and
// saves and restores memory around each: a call takes far longer than unprofiled.
constexpr double kProfiledTimeScale = 100;
// ncu prints its CSV when the worker exits; it may take a while to write it.
constexpr double kProfilerFinishSeconds = 120;
constexpr uint64_t kMaxNcuLogBytes = 64u << 20;

}  // namespace

std::string FindNcu() {
  if (auto p = FindOnPath("ncu"); !p.empty()) return p;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* home = std::getenv(var); home && *home) {
      std::string p = std::string(home) + "/bin/ncu";
      if (::access(p.c_str(), X_OK) == 0) return p;
    }
  return ::access("/usr/local/cuda/bin/ncu", X_OK) == 0 ? "/usr/local/cuda/bin/ncu" : "";
}

std::vector<std::string> NcuWrapper(const std::string& ncu, const std::string& log_path) {
  return {ncu,          "--target-processes",
          "all",        "--profile-from-start",
          "off",        "--clock-control",
          "none",       "--cache-control",
          "all",        "--csv",
          "--page",     "raw",
          "--metrics",  profile::MetricsArgument(),
          "--log-file", log_path};
}

std::vector<std::string> ProfilerSkippedLayers(std::optional<bool> admin_only, bool judge_is_root) {
  std::vector<std::string> skip = {"network_namespace", "no_new_code", std::string(kInternetSocketsRule),
                                   std::string(kNetlinkSocketsRule)};
  if (judge_is_root && admin_only.value_or(true)) skip.push_back("unprivileged");
  return skip;
}

profile::GpuFacts GpuFactsOf(const RunReport& report) {
  profile::GpuFacts g;
  g.read_gbps = report.ceiling_gbps;
  g.fp32_gflops = report.fp32_gflops;
  g.sm_count = report.device ? report.device->sm_count : 0;
  return g;
}

profile::WorkFacts WorkFactsOf(const Problem& problem, const ScalarValues& scalars) {
  profile::WorkFacts w;
  if (auto work = problem.WorkAt(scalars)) {
    w.useful_bytes = double(work->bytes());
    w.useful_flops = work->flops;
  }
  for (const Param& p : problem.params)
    if (p.is_buffer && p.role != Role::kInput)
      if (auto n = problem.ElementCount(p, scalars)) w.output_elements += *n;
  return w;
}

profile::SolveFacts SolveFactsOf(const CaseResult& judged) {
  profile::SolveFacts s;
  if (judged.FigureMs() > 0) s.solve_ms = judged.FigureMs();
  return s;
}

std::optional<size_t> CaseToProfile(const std::vector<CaseResult>& cases, const std::string& wanted,
                                    std::string* why_not) {
  for (size_t i = 0; i < cases.size(); ++i) {
    const CaseResult& c = cases[i];
    if (wanted.empty() ? (c.kind != CaseKind::kPerformance || c.IsHiddenTwin()) : c.name != wanted) continue;
    if (c.verdict != Verdict::kAccepted) {
      *why_not = "case " + c.name + " was not accepted (" + std::string(VerdictShort(c.verdict)) +
                 "): a failing call is not profiled";
      return std::nullopt;
    }
    // Its median would come from a correctness check's few calls: a profile set against it
    // (time outside kernels, host-bound) would compare with noise. The run was rejected anyway.
    if (OnlyChecked(c)) {
      *why_not = "case " + c.name + " was only checked, not timed, since an earlier case rejected the run: " +
                 "a rejected run is not profiled";
      return std::nullopt;
    }
    return i;
  }
  *why_not = wanted.empty() ? "no performance case was judged" : "case " + wanted + " was not judged";
  return std::nullopt;
}

profile::CaseProfile NotProfiled(const std::string& case_name, const std::string& why) {
  profile::CaseProfile p;
  p.case_name = case_name;
  p.status = profile::ProfileStatus::kSkipped;
  p.message = why;
  return p;
}

profile::CaseProfile ProfileCase(const Problem& problem, const CaseRunnerConfig& base, const PreparedCase& c,
                                 const CaseResult& judged, const RunReport& report) {
  auto start = std::chrono::steady_clock::now();
  auto finish = [&](profile::CaseProfile p) {
    p.case_name = c.spec.name;
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return p;
  };
  const std::string ncu = FindNcu();
  if (ncu.empty() || base.device_kind != DeviceKind::kCuda) {
    profile::CaseProfile p = profile::NcuMissing();
    if (base.device_kind != DeviceKind::kCuda) p.message = "profiling needs a CUDA device";
    return finish(p);
  }
  auto dir = MakeTempDir(std::filesystem::temp_directory_path().string(), "gpu-judge-profile-");
  if (!dir) {
    profile::CaseProfile p;
    p.message = dir.error().message;
    return finish(p);
  }
  const std::string log_path = *dir + "/ncu.csv";
  CaseRunnerConfig config = base;
  config.wrapper = NcuWrapper(ncu, log_path);
  config.wrapper_skip = ProfilerSkippedLayers(
      profile::CountersAdminOnly(ReadFile("/proc/driver/nvidia/params", 1 << 16).value_or(std::string())),
      ::geteuid() == 0);
  config.single_call = true;
  config.profile = true;
  config.ahead = nullptr;  // a profiled worker takes seconds to start: none is started on spec
  config.finish_grace_seconds = kProfilerFinishSeconds;
  config.time_scale = kProfiledTimeScale;
  config.timing_processes = 1;
  CaseResult profiled;
  {
    Problem slow = problem;
    CaseRunner runner(slow, config);
    profiled = runner.RunCase(c);
  }  // the worker exits here, and ncu writes its log
  std::string log = ReadFile(log_path, kMaxNcuLogBytes).value_or(std::string());
  RemoveTree(*dir);
  profile::CaseProfile p =
      profile::ProfileFromNcu(log, SolveFactsOf(judged), GpuFactsOf(report), WorkFactsOf(problem, c.spec.scalars));
  if (p.status == profile::ProfileStatus::kFailed && profiled.verdict != Verdict::kAccepted) {
    p.message += "; the call under the profiler (not judged: the verdict stands) ended " +
                 std::string(VerdictShort(profiled.verdict)) + (profiled.detail.empty() ? "" : ": " + profiled.detail);
    // Which call the sandbox stopped: what decides the layer the profiler's library needs.
    if (auto line = StoppedCallLine(profiled.worker_stderr); !line.empty()) p.message += " (" + line + ")";
  }
  return finish(p);
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// `judge profile` and `--profile`: one solve() call of a performance case again, in a worker
// started under Nsight Compute (the way --sanitize starts one under compute-sanitizer), read into a
// diagnosis by judge/profile. Information only: the case was judged and timed before, unprofiled,
// and nothing here changes its verdict or time.
#include <optional>
#include <string>
#include <vector>

#include "judge/check/case_preparation.h"
#include "judge/core/run_report.h"
#include "judge/problem/problem.h"
#include "judge/profile/profile.h"
#include "judge/run/case_runner.h"

namespace judge {

// ncu on PATH, else in $CUDA_HOME/bin, $CUDA_PATH/bin or /usr/local/cuda/bin; empty when missing.
std::string FindNcu();

// The wrapper the worker runs under: ncu, measuring only the profiler range the worker opens
// around one solve() call, at the clocks the judge times at, caches flushed before each kernel
// like the judge's cold calls, the CSV into `log_path` (never stdout, where the submission prints).
std::vector<std::string> NcuWrapper(const std::string& ncu, const std::string& log_path);

// The sandbox layers a worker under ncu leaves out, each found needed on the H200 (driver 580, ncu
// of CUDA 13.0; docs/results/h200-2026-12-02-profile.md): network_namespace, as under
// compute-sanitizer (the run hangs); no_new_code, or ncu stops at "Failed to prepare kernel for
// profiling" (its injected library makes memory executable after the submission is loaded);
// and of seccomp only its rules against internet and netlink sockets (kInternetSocketsRule,
// kNetlinkSocketsRule): the injected library opens both, and the worker died of SIGSYS at each (the
// sandbox named "socket (internet)", then "socket (netlink)"; of netlink only NETLINK_ROUTE, which
// was enough on the H200); exec, fork, ptrace, packet sockets,
// writable-and-executable memory and the rest of the filter still hold. And where the driver
// lets only administrators read the counters (`admin_only`, the default) and the judge runs as root, `unprivileged`:
// the counters are opened inside the worker, which would otherwise have dropped to nobody, and every profile would end
// ERR_NVGPUCTRPERM. Landlock, the code seal, no_new_privs, the rest of seccomp and the rlimits still hold; the call
// profiled was judged before under every layer.
std::vector<std::string> ProfilerSkippedLayers(std::optional<bool> admin_only, bool judge_is_root);

// The facts the diagnosis weighs the case's metrics against: the GPU's measured ceilings and SM
// count, the problem's useful work at the case's sizes, the unprofiled median of `judged`.
profile::GpuFacts GpuFactsOf(const RunReport& report);
profile::WorkFacts WorkFactsOf(const Problem& problem, const ScalarValues& scalars);
profile::SolveFacts SolveFactsOf(const CaseResult& judged);

// Which judged case to profile: the one named `wanted`, else the first accepted performance case
// that is not a hidden twin; nullopt when none qualifies (the message says why), and for a case
// only checked because an earlier one rejected the run (OnlyChecked).
std::optional<size_t> CaseToProfile(const std::vector<CaseResult>& cases, const std::string& wanted,
                                    std::string* why_not);

// The entry of a case that was not profiled, and why (kSkipped).
profile::CaseProfile NotProfiled(const std::string& case_name, const std::string& why);

// Profiles `c` (already judged as `judged`) once under ncu.
profile::CaseProfile ProfileCase(const Problem& problem, const CaseRunnerConfig& base, const PreparedCase& c,
                                 const CaseResult& judged, const RunReport& report);

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// When a run stops before its last case, and what the cases it did not run get: the run-level
// rules beside the case-level ones (case_verdict.h). Pure: the engine passes what it has seen.
#include <optional>
#include <string>
#include <vector>

#include "judge/core/verdict.h"
#include "judge/problem/problem.h"
#include "judge/rules/case_verdict.h"

namespace judge {

// A kernel that hung on this many cases in a row would cost every remaining case its full limit
// (plus a fresh CUDA context): a course batch with a few of those would take hours.
inline constexpr int kTimeoutsBeforeGivingUp = 3;
// The same for crashes: each costs a fresh worker and CUDA context (0.5-2 s on the H200), and a
// kernel that crashes on three cases in a row crashes on the rest. The remaining cases are NR.
inline constexpr int kCrashesBeforeGivingUp = 3;

struct RunSoFar {
  std::vector<Verdict> verdicts;  // of the cases run, in order
  double elapsed_seconds = 0;
  bool interrupted = false;
};

// The verdict of every case not yet run when the run must stop now; nullopt: go on. The run's
// budget is the problem's limits.run_seconds: past it, the cases not started are NR and say so.
std::optional<Failure> StopBeforeNextCase(const RunSoFar& run, const Limits& limits);

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// When a run stops before its last case, and what the cases it did not run get: the run-level
// rules beside the case-level ones (case_verdict.h). Pure: the engine passes what it has seen.
#include <optional>
#include <string>
#include <vector>

#include "judge/core/run_report.h"
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

// Once a case has rejected the submission, no time of the run ranks or earns points (grading gives
// speed points only to a run accepted on every case), so the later performance cases are only
// checked: a correctness case's few calls over the input variants, no fresh inputs per call, no
// hidden-size twin. A rejected submission's verdict then comes back in seconds, not after a minute
// of timing a kernel whose times count for nothing (issue 13: prefix_sum's must-fail samples took
// 18-29 s each on the H200, two thirds of it timing). Returns the first rejecting case's index.
// Rejecting: any verdict but AC, and but IE and NR, which are not the submission's doing.
std::optional<size_t> FirstRejection(const std::vector<Verdict>& verdicts);
// The flag such a performance case carries (a flagged case is not ranked), naming the case that
// rejected the run.
std::string CheckedOnlyFlag(const std::string& rejected_case, Verdict rejected_by);
// Whether `c` is such a case: its few calls are no time to show beside timed ones (ladders, charts).
bool OnlyChecked(const CaseResult& c);

// The verdict of every case not yet run when the run must stop now; nullopt: go on. The run's
// budget is the problem's limits.run_seconds: past it, the cases not started are NR and say so.
std::optional<Failure> StopBeforeNextCase(const RunSoFar& run, const Limits& limits);

}  // namespace judge

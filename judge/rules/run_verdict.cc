// SPDX-License-Identifier: MIT
#include "judge/rules/run_verdict.h"

namespace judge {

namespace {

int InARow(const std::vector<Verdict>& verdicts, Verdict v) {
  int n = 0;
  for (auto it = verdicts.rbegin(); it != verdicts.rend() && *it == v; ++it) ++n;
  return n;
}

}  // namespace

std::optional<Failure> StopBeforeNextCase(const RunSoFar& run, const Limits& limits) {
  if (InARow(run.verdicts, Verdict::kTimeLimit) >= kTimeoutsBeforeGivingUp)
    return Failure{Verdict::kTimeLimit, "not run: the " + std::to_string(kTimeoutsBeforeGivingUp) +
                                            " cases before it exceeded the time limit"};
  if (InARow(run.verdicts, Verdict::kRuntimeError) >= kCrashesBeforeGivingUp)
    return Failure{Verdict::kNotRun, "not run: the " + std::to_string(kCrashesBeforeGivingUp) +
                                         " cases before it failed at run time (RE); each failure costs a fresh "
                                         "worker, so the rest of the run was skipped"};
  if (run.elapsed_seconds > limits.run_seconds)
    return Failure{Verdict::kNotRun, "not run: the submission's judging budget of " +
                                         std::to_string(int(limits.run_seconds)) +
                                         " s (the problem's limits.run_seconds) was spent"};
  if (run.interrupted) return Failure{Verdict::kNotRun, "the run was interrupted before this case"};
  return std::nullopt;
}

}  // namespace judge

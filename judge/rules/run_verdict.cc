// SPDX-License-Identifier: MIT
#include "judge/rules/run_verdict.h"

namespace judge {

std::optional<Failure> StopBeforeNextCase(const RunSoFar& run, const Limits& limits) {
  int timeouts_in_a_row = 0;
  for (auto it = run.verdicts.rbegin(); it != run.verdicts.rend() && *it == Verdict::kTimeLimit; ++it)
    ++timeouts_in_a_row;
  if (timeouts_in_a_row >= kTimeoutsBeforeGivingUp)
    return Failure{Verdict::kTimeLimit, "not run: the " + std::to_string(kTimeoutsBeforeGivingUp) +
                                            " cases before it exceeded the time limit"};
  if (run.elapsed_seconds > limits.run_seconds)
    return Failure{Verdict::kTimeLimit,
                   "not started: the run exceeded its " + std::to_string(int(limits.run_seconds)) + " s limit"};
  if (run.interrupted) return Failure{Verdict::kNotRun, "the run was interrupted before this case"};
  return std::nullopt;
}

}  // namespace judge

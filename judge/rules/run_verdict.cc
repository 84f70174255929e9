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

std::optional<size_t> FirstRejection(const std::vector<Verdict>& verdicts) {
  for (size_t i = 0; i < verdicts.size(); ++i)
    if (verdicts[i] != Verdict::kAccepted && verdicts[i] != Verdict::kInternalError && verdicts[i] != Verdict::kNotRun)
      return i;
  return std::nullopt;
}

namespace {
constexpr std::string_view kCheckedOnly = "only checked, not timed: the run was already rejected (";
}

std::string CheckedOnlyFlag(const std::string& rejected_case, Verdict rejected_by) {
  return std::string(kCheckedOnly) + rejected_case + ": " + std::string(VerdictShort(rejected_by)) +
         "), so no time of it ranks";
}

bool OnlyChecked(const CaseResult& c) {
  for (const auto& f : c.flags)
    if (f.rfind(kCheckedOnly, 0) == 0) return true;
  return false;
}

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

// SPDX-License-Identifier: MIT
#include "judge/core/verdict.h"

#include <array>

namespace judge {
namespace {

struct VerdictInfo {
  Verdict verdict;
  std::string_view short_name;
  std::string_view long_name;
  int severity;
};

constexpr std::array<VerdictInfo, 10> kVerdicts = {{
    {Verdict::kAccepted, "AC", "accepted", 0},
    {Verdict::kNotRun, "NR", "not run", 1},
    {Verdict::kWrongAnswer, "WA", "wrong answer", 2},
    {Verdict::kRuntimeError, "RE", "runtime error", 3},
    {Verdict::kMemoryViolation, "MV", "memory violation", 4},
    {Verdict::kOutputLimit, "OLE", "output limit exceeded", 5},
    {Verdict::kMemoryLimit, "MLE", "memory limit exceeded", 6},
    {Verdict::kTimeLimit, "TLE", "time limit exceeded", 7},
    {Verdict::kCompileError, "CE", "compile error", 8},
    {Verdict::kInternalError, "IE", "internal error (judge fault)", 9},
}};

const VerdictInfo& Info(Verdict v) {
  for (const auto& info : kVerdicts)
    if (info.verdict == v) return info;
  return kVerdicts.back();
}

}  // namespace

std::string_view VerdictShort(Verdict v) { return Info(v).short_name; }
std::string_view VerdictLong(Verdict v) { return Info(v).long_name; }
int VerdictSeverity(Verdict v) { return Info(v).severity; }

std::optional<Verdict> VerdictFromShort(std::string_view s) {
  for (const auto& info : kVerdicts)
    if (info.short_name == s) return info.verdict;
  return std::nullopt;
}

Verdict WorstVerdict(const std::vector<Verdict>& verdicts) {
  Verdict worst = Verdict::kAccepted;
  for (Verdict v : verdicts)
    if (VerdictSeverity(v) > VerdictSeverity(worst)) worst = v;
  return worst;
}

ExitCode ExitCodeForVerdict(Verdict run_verdict) {
  switch (run_verdict) {
    case Verdict::kAccepted: return ExitCode::kAccepted;
    case Verdict::kInternalError: return ExitCode::kInternalError;
    case Verdict::kNotRun: return ExitCode::kInterrupted;
    default: return ExitCode::kRejected;
  }
}

}  // namespace judge

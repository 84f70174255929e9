// SPDX-License-Identifier: MIT
#pragma once
// `judge run --sanitize`: the small cases again, one call each, in a worker started under NVIDIA's
// compute-sanitizer (memcheck, racecheck, initcheck, synccheck), reported as a separate check:
// findings never change the verdict, they explain it or warn about luck.
#include <string>
#include <vector>

#include "judge/check/case_preparation.h"
#include "judge/problem/problem.h"
#include "judge/run/case_runner.h"

namespace judge {

struct SanitizeOptions {
  std::vector<std::string> tools = {"memcheck", "racecheck", "initcheck", "synccheck"};
  double budget_seconds = 120;       // per tool
  size_t max_cases = 8;              // the smallest ones
  int64_t max_case_bytes = 1 << 20;  // only cases that move at most this much
};

std::string FindComputeSanitizer();

std::vector<SanitizerResult> RunSanitizers(const Problem& problem, const CaseRunnerConfig& base,
                                           const std::vector<PreparedCase>& cases, const SanitizeOptions& options);

// Reads compute-sanitizer's log: counts and the summary line.
SanitizerResult ParseSanitizerLog(const std::string& tool, const std::string& log);

}  // namespace judge

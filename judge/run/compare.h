// SPDX-License-Identifier: MIT
#pragma once
// `judge compare A B`: runs A and B alternately on one performance case, round after round, so
// drift in clocks or temperature hits both alike, and estimates the ratio of their times.
#include <string>
#include <vector>

#include "judge/measure/ratio.h"
#include "judge/run/run_pipeline.h"

namespace judge {

struct Comparison {
  std::string case_name;
  std::vector<double> a_ms, b_ms;  // per round: each side's median (honest time) on the case
  RatioEstimate estimate;
};

// Errors when a side is not accepted on the case: comparing a wrong answer's speed means nothing.
Expected<Comparison> CompareSubmissions(const RunOptions& base, const std::string& a, const std::string& b,
                                        const std::string& case_name, int rounds);

}  // namespace judge

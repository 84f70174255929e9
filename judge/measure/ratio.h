// SPDX-License-Identifier: MIT
#pragma once
// The ratio of two kernels' times from paired, interleaved measurements: the geometric mean of the
// per-round ratios with a 95% Student-t interval on their logarithms.
#include <string>
#include <vector>

namespace judge {

struct RatioEstimate {
  int rounds = 0;
  double ratio = 0;          // time(A) / time(B): below 1, A is faster
  double low = 0, high = 0;  // 95% confidence interval of the ratio
  bool significant() const { return rounds >= 2 && (high < 1.0 || low > 1.0); }
  std::string Describe(const std::string& a, const std::string& b) const;
};

RatioEstimate EstimateRatio(const std::vector<double>& a_ms, const std::vector<double>& b_ms);

}  // namespace judge

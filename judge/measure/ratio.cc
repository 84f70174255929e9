// SPDX-License-Identifier: MIT
#include "judge/measure/ratio.h"

#include <cmath>
#include <cstdio>

namespace judge {
namespace {

// Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom; 1.96 beyond.
double T975(int df) {
  static const double kTable[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                  2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                  2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  return df >= 1 && df <= 30 ? kTable[df - 1] : 1.96;
}

}  // namespace

RatioEstimate EstimateRatio(const std::vector<double>& a_ms, const std::vector<double>& b_ms) {
  RatioEstimate r;
  std::vector<double> logs;
  for (size_t i = 0; i < a_ms.size() && i < b_ms.size(); ++i)
    if (a_ms[i] > 0 && b_ms[i] > 0) logs.push_back(std::log(a_ms[i] / b_ms[i]));
  r.rounds = int(logs.size());
  if (logs.empty()) return r;
  double mean = 0;
  for (double l : logs) mean += l;
  mean /= double(logs.size());
  double var = 0;
  for (double l : logs) var += (l - mean) * (l - mean);
  double half =
      logs.size() > 1 ? T975(int(logs.size()) - 1) * std::sqrt(var / double(logs.size() - 1) / double(logs.size())) : 0;
  r.ratio = std::exp(mean);
  r.low = std::exp(mean - half);
  r.high = std::exp(mean + half);
  return r;
}

std::string RatioEstimate::Describe(const std::string& a, const std::string& b) const {
  char buf[256];
  if (rounds == 0) return "no rounds measured";
  if (!significant()) {
    std::snprintf(buf, sizeof buf, "no significant difference: %s / %s = %.3f (95%% CI %.3f - %.3f, %d rounds)",
                  a.c_str(), b.c_str(), ratio, low, high, rounds);
  } else {
    bool a_faster = ratio < 1;
    std::snprintf(buf, sizeof buf, "%s is %.2fx %s than %s (time ratio %.3f, 95%% CI %.3f - %.3f, %d rounds)",
                  a.c_str(), a_faster ? 1 / ratio : ratio, a_faster ? "faster" : "slower", b.c_str(), ratio, low, high,
                  rounds);
  }
  return buf;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/measure/sample_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace judge {
namespace {

// Linear interpolation between closest ranks (the usual "type 7" quantile).
double Quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  double pos = q * double(sorted.size() - 1);
  size_t lo = size_t(std::floor(pos)), hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - double(lo));
}

}  // namespace

SampleStats Summarize(std::vector<double> samples) {
  SampleStats s;
  s.count = int(samples.size());
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.min = samples.front();
  s.max = samples.back();
  s.median = Quantile(samples, 0.5);
  s.q1 = Quantile(samples, 0.25);
  s.q3 = Quantile(samples, 0.75);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / double(s.count);
  double ss = 0;
  for (double x : samples) ss += (x - s.mean) * (x - s.mean);
  s.stddev = s.count > 1 ? std::sqrt(ss / double(s.count - 1)) : 0;
  if (s.median > 0 && s.count > 1) s.noise = 1.2533 * (s.iqr() / 1.349) / std::sqrt(double(s.count)) / s.median;
  return s;
}

bool ShouldStopSampling(const TimingPolicy& policy, const std::vector<double>& samples_ms, double spent_seconds) {
  int n = int(samples_ms.size());
  if (n >= policy.max_samples) return true;
  if (n >= 1 && spent_seconds >= policy.budget_seconds) return true;
  SampleStats stats = Summarize(samples_ms);
  // Calls so slow that min_samples of them would overrun the budget settle for kFewSamples and
  // the noise target: a 100 ms kernel's median is stable long before its 30th sample, and with 3
  // samples the noise target still asks for a range under ~0.5% of the median (for 0.25%).
  constexpr int kFewSamples = 3;
  bool slow = n >= kFewSamples && stats.mean * 1e-3 * policy.min_samples > policy.budget_seconds;
  if (n < policy.min_samples && !slow) return false;
  return stats.noise <= policy.target_noise;
}

bool ShouldWarmUp(const TimingPolicy& policy, int warmups_done, double elapsed_seconds, double last_call_seconds) {
  return warmups_done < policy.warmup_calls && elapsed_seconds + last_call_seconds <= 0.1 * policy.budget_seconds;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// Summary statistics of timing samples and the rule that decides when to stop sampling.
#include <vector>

#include "judge/problem/problem.h"

namespace judge {

struct SampleStats {
  int count = 0;
  double median = 0, mean = 0, min = 0, max = 0, q1 = 0, q3 = 0, stddev = 0;
  // Relative standard error of the median, from the IQR (robust to outliers):
  // 1.2533 * (IQR / 1.349) / sqrt(n) / median.
  double noise = 0;
  double iqr() const { return q3 - q1; }
};

SampleStats Summarize(std::vector<double> samples);

// Stop when max_samples is reached, when min_samples are in and the noise is under target, or
// when the time budget is spent (after at least one sample: a slow kernel is still measured).
bool ShouldStopSampling(const TimingPolicy& policy, const std::vector<double>& samples_ms, double spent_seconds);

// Whether another untimed warm-up call goes before sampling: up to warmup_calls of them, while the
// next one (as long as the last call) still ends within a tenth of the budget. `elapsed_seconds`
// counts from the first (checked) call, which warms up too: a call that alone takes over a
// twentieth of the budget gets no separate warm-up.
bool ShouldWarmUp(const TimingPolicy& policy, int warmups_done, double elapsed_seconds, double last_call_seconds);

}  // namespace judge

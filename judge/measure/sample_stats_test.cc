// SPDX-License-Identifier: MIT
#include "judge/measure/sample_stats.h"

#include <gtest/gtest.h>

namespace judge {
namespace {

TEST(SampleStats, Quantiles) {
  auto s = Summarize({5, 1, 3, 2, 4});
  EXPECT_EQ(s.count, 5);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.iqr(), 2);
}

TEST(SampleStats, NoiseIsRobustToOneOutlier) {
  std::vector<double> v(20, 10.0);
  for (size_t i = 0; i < v.size(); ++i) v[i] += 0.01 * double(i % 5);
  double calm = Summarize(v).noise;
  v.push_back(1000.0);
  EXPECT_LT(Summarize(v).noise, calm * 2);
  EXPECT_GT(Summarize(v).stddev, 100);  // while the standard deviation explodes
}

TEST(StoppingRule, HonoursMinMaxNoiseAndBudget) {
  TimingPolicy p{1, 3, 5, 10.0, 0.01};
  EXPECT_FALSE(ShouldStopSampling(p, {1, 1}, 0));            // under min
  EXPECT_TRUE(ShouldStopSampling(p, {1, 1, 1}, 0));          // min reached, no noise
  EXPECT_FALSE(ShouldStopSampling(p, {1, 2, 3}, 0));         // noisy
  EXPECT_TRUE(ShouldStopSampling(p, {1, 2, 3, 4, 5}, 0));    // max
  EXPECT_TRUE(ShouldStopSampling(p, {1}, 11));               // budget spent: a slow kernel stops early
  EXPECT_FALSE(ShouldStopSampling(p, {}, 11));               // but never with no sample
}

TEST(StoppingRule, SlowCallsSettleForFiveQuietSamples) {
  TimingPolicy p{1, 30, 500, 2.0, 0.005};
  std::vector<double> fast(5, 1.0), slow(5, 100.0);          // ms per call
  EXPECT_FALSE(ShouldStopSampling(p, fast, 0.005));          // 30 x 1 ms fits the budget: wait for 30
  EXPECT_TRUE(ShouldStopSampling(p, slow, 0.5));             // 30 x 100 ms would not: 5 quiet ones do
  EXPECT_FALSE(ShouldStopSampling(p, {100, 100, 100, 100}, 0.4));  // but not fewer than 5
  EXPECT_FALSE(ShouldStopSampling(p, {100, 150, 80, 120, 60}, 0.5));  // nor noisy ones
}

}  // namespace
}  // namespace judge

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
  EXPECT_FALSE(ShouldStopSampling(p, {1, 1}, 0));          // under min
  EXPECT_TRUE(ShouldStopSampling(p, {1, 1, 1}, 0));        // min reached, no noise
  EXPECT_FALSE(ShouldStopSampling(p, {1, 2, 3}, 0));       // noisy
  EXPECT_TRUE(ShouldStopSampling(p, {1, 2, 3, 4, 5}, 0));  // max
  EXPECT_TRUE(ShouldStopSampling(p, {1}, 11));             // budget spent: a slow kernel stops early
  EXPECT_FALSE(ShouldStopSampling(p, {}, 11));             // but never with no sample
}

TEST(StoppingRule, SlowCallsSettleForThreeQuietSamples) {
  TimingPolicy p{1, 30, 500, 2.0, 0.005};
  std::vector<double> fast(5, 1.0), slow(3, 100.0);           // ms per call
  EXPECT_FALSE(ShouldStopSampling(p, fast, 0.005));           // 30 x 1 ms fits the budget: wait for 30
  EXPECT_TRUE(ShouldStopSampling(p, slow, 0.3));              // 30 x 100 ms would not: 3 quiet ones do
  EXPECT_FALSE(ShouldStopSampling(p, {100, 100}, 0.2));       // but not fewer than 3
  EXPECT_FALSE(ShouldStopSampling(p, {100, 150, 80}, 0.33));  // nor noisy ones
  EXPECT_FALSE(ShouldStopSampling(p, {100, 102, 101}, 0.3));  // 2% apart is too noisy for 0.5%
  EXPECT_TRUE(ShouldStopSampling(p, {100, 100.2, 100.1}, 0.3));
}

TEST(WarmUpRule, StopsAtTheCountOrATenthOfTheBudget) {
  TimingPolicy p{5, 30, 500, 2.0, 0.0025};
  EXPECT_TRUE(ShouldWarmUp(p, 0, 1e-5, 1e-5));  // a 10 us kernel gets all five
  EXPECT_TRUE(ShouldWarmUp(p, 4, 5e-5, 1e-5));
  EXPECT_FALSE(ShouldWarmUp(p, 5, 6e-5, 1e-5));
  EXPECT_TRUE(ShouldWarmUp(p, 2, 0.15, 0.05));  // a 50 ms call: checked call + 3 warm-ups = 0.2 s
  EXPECT_FALSE(ShouldWarmUp(p, 3, 0.2, 0.05));
  EXPECT_FALSE(ShouldWarmUp(p, 0, 0.113, 0.113));  // a 113 ms call: the checked call was its warm-up
}

}  // namespace
}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/measure/ratio.h"

#include <filesystem>

#include "judge/measure/ceiling_cache.h"
#include "judge/util/fs.h"

#include <gtest/gtest.h>

namespace judge {
namespace {

TEST(Ratio, ClearlyFasterIsSignificant) {
  RatioEstimate r = EstimateRatio({10.0, 10.2, 9.9, 10.1, 10.0}, {20.0, 20.3, 19.8, 20.1, 20.0});
  EXPECT_NEAR(r.ratio, 0.5, 0.01);
  EXPECT_LT(r.high, 1.0);
  EXPECT_TRUE(r.significant());
  EXPECT_NE(r.Describe("A", "B").find("A is 2.00x faster than B"), std::string::npos) << r.Describe("A", "B");
}

TEST(Ratio, NoisyEqualTimesAreNotSignificant) {
  RatioEstimate r = EstimateRatio({10.0, 10.5, 9.6, 10.2}, {10.3, 9.8, 10.1, 9.9});
  EXPECT_LT(r.low, 1.0);
  EXPECT_GT(r.high, 1.0);
  EXPECT_FALSE(r.significant());
  EXPECT_NE(r.Describe("A", "B").find("no significant difference"), std::string::npos);
}

TEST(Ratio, OneRoundHasNoInterval) {
  RatioEstimate r = EstimateRatio({1.0}, {2.0});
  EXPECT_EQ(r.rounds, 1);
  EXPECT_FALSE(r.significant());
  EXPECT_EQ(EstimateRatio({}, {}).rounds, 0);
}

TEST(CeilingCache, RoundTripsPerDeviceAndDriver) {
  std::string dir = MakeTempDir(std::filesystem::temp_directory_path().string(), "judge-ceiling-").value();
  DeviceInfo h200;
  h200.kind = DeviceKind::kCuda;
  h200.name = "NVIDIA H200";
  h200.cc_major = 9;
  h200.driver_version = "13.0";
  EXPECT_FALSE(LoadCeiling(dir, h200).ok());
  ASSERT_TRUE(StoreCeiling(dir, h200, 4497.0).ok());
  EXPECT_DOUBLE_EQ(LoadCeiling(dir, h200).value(), 4497.0);
  DeviceInfo updated = h200;
  updated.driver_version = "13.1";  // a new driver may move the ceiling: measured again
  EXPECT_FALSE(LoadCeiling(dir, updated).ok());
  EXPECT_NE(CeilingCacheKey(h200), CeilingCacheKey(updated));
  EXPECT_FALSE(LoadCeiling("", h200).ok());  // no cache folder: always measured
  RemoveTree(dir);
}

}  // namespace
}  // namespace judge

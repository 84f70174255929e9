// SPDX-License-Identifier: MIT
#include "judge/measure/ratio.h"

#include <filesystem>

#include "judge/measure/ceiling_cache.h"
#include "judge/measure/roofline.h"
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
  EXPECT_FALSE(LoadCeilings(dir, h200).ok());
  ASSERT_TRUE(StoreCeilings(dir, h200, Ceilings{4497.0, 3900.0, 61000.0, "shapes"}).ok());
  Ceilings back = LoadCeilings(dir, h200).value();
  EXPECT_DOUBLE_EQ(back.read_gbps, 4497.0);
  EXPECT_DOUBLE_EQ(back.copy_gbps, 3900.0);
  EXPECT_DOUBLE_EQ(back.fp32_gflops, 61000.0);
  DeviceInfo updated = h200;
  updated.driver_version = "13.1";  // a new driver may move the ceiling: measured again
  EXPECT_FALSE(LoadCeilings(dir, updated).ok());
  EXPECT_NE(CeilingCacheKey(h200), CeilingCacheKey(updated));
  EXPECT_FALSE(LoadCeilings("", h200).ok());  // no cache folder: always measured
  // An entry missing a ceiling (an older judge's) is measured again, not half used.
  ASSERT_TRUE(StoreCeilings(dir, h200, Ceilings{4497.0, 0, 61000.0, ""}).ok());
  EXPECT_FALSE(LoadCeilings(dir, h200).ok());
  RemoveTree(dir);
}

const Ceilings kH200{4500, 4000, 60000, ""};

TEST(Roofline, AReductionIsHeldToTheReadCeiling) {
  Work w{400000000, 4, 1e8};  // 1e8 floats read, one written, one add each
  RooflinePoint p = PlaceOnRoofline(w, 0.1, kH200);
  EXPECT_EQ(p.bound, Bound::kMemory);
  EXPECT_NEAR(p.gbps, 4000, 1e-3);
  EXPECT_NEAR(p.gflops, 1000, 1e-3);
  EXPECT_NEAR(p.pct, 100 * 4000.0 / 4500.0, 1e-3);  // the read ceiling: it writes nothing to speak of
}

TEST(Roofline, TheMemoryCeilingIsTheFastestTheJudgeMovedBytes) {
  EXPECT_DOUBLE_EQ(MemoryCeilingGbps(kH200), 4500);                        // reads beat the copy kernel
  EXPECT_DOUBLE_EQ(MemoryCeilingGbps(Ceilings{4000, 4200, 0, ""}), 4200);  // a GPU where copying wins
  // vector_add's work: a third of it written, held to the same ceiling as a read.
  RooflinePoint add = PlaceOnRoofline(Work{8000000, 4000000, 1e6}, 0.003, kH200);
  EXPECT_NEAR(add.pct, 100 * (12e6 / 4500e9) / 3e-6, 1e-6);
}

TEST(Roofline, AMatmulIsHeldToTheFp32Ceiling) {
  const double n = 2048;
  Work w{int64_t(8 * n * n), int64_t(4 * n * n), 2 * n * n * n};
  RooflinePoint p = PlaceOnRoofline(w, 0.5, kH200);  // 34 TFLOP/s
  EXPECT_EQ(p.bound, Bound::kCompute);
  EXPECT_NEAR(p.gflops, 2 * n * n * n / 0.5e-3 / 1e9, 1e-6);
  EXPECT_NEAR(p.pct, 100 * (2 * n * n * n / 60000e9 * 1e3) / 0.5, 1e-6);
  EXPECT_EQ(PlaceOnRoofline(w, 0.5, Ceilings{}).bound, Bound::kUnknown);  // nothing measured: no percentage
  EXPECT_EQ(PlaceOnRoofline(w, 0.5, Ceilings{}).pct, 0);
}

}  // namespace
}  // namespace judge

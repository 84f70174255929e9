// SPDX-License-Identifier: MIT
#include "judge/check/tolerance_check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace judge {
namespace {

std::string Floats(std::initializer_list<float> v) {
  std::string raw(v.size() * 4, '\0');
  std::memcpy(raw.data(), v.begin(), raw.size());
  return raw;
}

const Tolerance kLeetGpu{1e-5, 1e-5};

TEST(ToleranceCheck, ExactPasses) {
  auto r = CheckOutput({36.0}, Floats({36.0f}), DType::kFloat32, kLeetGpu);
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(r.tolerance_used, 0);
}

TEST(ToleranceCheck, BoundaryIsAtolPlusRtolTimesExpected) {
  // tolerance at 1000 is 1e-5 + 1e-2; 1000.0078125 (the next-but-one float) is within, 1000.0117 is not.
  auto in = CheckOutput({1000.0}, Floats({1000.0078125f}), DType::kFloat32, kLeetGpu);
  EXPECT_TRUE(in.passed);
  EXPECT_NEAR(in.tolerance, 0.01001, 1e-9);
  EXPECT_NEAR(in.tolerance_used, 0.0078125 / 0.01001, 1e-9);
  auto out = CheckOutput({1000.0}, Floats({1000.01171875f}), DType::kFloat32, kLeetGpu);
  EXPECT_FALSE(out.passed);
  EXPECT_GT(out.tolerance_used, 1.0);
}

TEST(ToleranceCheck, CatchesTheFloatAtomicPrecisionBug) {
  // 20M ones summed element by element in float stop at 2^24.
  auto r = CheckOutput({20000000.0}, Floats({16777216.0f}), DType::kFloat32, kLeetGpu);
  EXPECT_FALSE(r.passed);
  EXPECT_NEAR(r.rel_error, 0.16113920, 1e-6);
}

TEST(ToleranceCheck, NanAndInfNeverPass) {
  float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (float bad : {nan, inf, -inf}) {
    auto r = CheckOutput({1.0}, Floats({bad}), DType::kFloat32, Tolerance{1e30, 1e30});
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.non_finite, 1);
  }
  auto r = CheckOutput({1.0}, Floats({nan}), DType::kFloat32, kLeetGpu);
  EXPECT_NE(r.Describe("output").find("NaN"), std::string::npos);
}

TEST(ToleranceCheck, ReportsTheWorstElement) {
  auto r = CheckOutput({1, 2, 3}, Floats({1, 2.5f, 3}), DType::kFloat32, kLeetGpu);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.worst_index, 1);
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_NE(r.Describe("output").find("output[1] = 2.5, expected 2"), std::string::npos) << r.Describe("output");
}

TEST(ToleranceCheck, ExactForIntegers) {
  int32_t v[2] = {5, 7};
  std::string raw(reinterpret_cast<char*>(v), 8);
  EXPECT_TRUE(CheckOutput({5, 7}, raw, DType::kInt32, Tolerance{0, 0}).passed);
  EXPECT_FALSE(CheckOutput({5, 8}, raw, DType::kInt32, Tolerance{0, 0}).passed);
}

}  // namespace
}  // namespace judge

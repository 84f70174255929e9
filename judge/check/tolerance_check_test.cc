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

const CheckSpec kLeetGpu{CheckKind::kTolerance, {1e-5, 1e-5}, false};

CheckSpec Within(double atol, double rtol) { return {CheckKind::kTolerance, {atol, rtol}, false}; }

TEST(ToleranceCheck, ExactPasses) {
  auto r = CheckOutput({36.0}, nullptr, Floats({36.0f}), DType::kFloat32, kLeetGpu);
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(r.tolerance_used, 0);
}

TEST(ToleranceCheck, BoundaryIsAtolPlusRtolTimesExpected) {
  // tolerance at 1000 is 1e-5 + 1e-2; 1000.0078125 (the next-but-one float) is within, 1000.0117 is not.
  auto in = CheckOutput({1000.0}, nullptr, Floats({1000.0078125f}), DType::kFloat32, kLeetGpu);
  EXPECT_TRUE(in.passed);
  EXPECT_NEAR(in.tolerance, 0.01001, 1e-9);
  EXPECT_NEAR(in.tolerance_used, 0.0078125 / 0.01001, 1e-9);
  auto out = CheckOutput({1000.0}, nullptr, Floats({1000.01171875f}), DType::kFloat32, kLeetGpu);
  EXPECT_FALSE(out.passed);
  EXPECT_GT(out.tolerance_used, 1.0);
}

TEST(ToleranceCheck, CatchesTheFloatAtomicPrecisionBug) {
  // 20M ones summed element by element in float stop at 2^24.
  auto r = CheckOutput({20000000.0}, nullptr, Floats({16777216.0f}), DType::kFloat32, kLeetGpu);
  EXPECT_FALSE(r.passed);
  EXPECT_NEAR(r.rel_error, 0.16113920, 1e-6);
}

TEST(ToleranceCheck, NanAndInfNeverPass) {
  float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (float bad : {nan, inf, -inf}) {
    auto r = CheckOutput({1.0}, nullptr, Floats({bad}), DType::kFloat32, Within(1e30, 1e30));
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.non_finite, 1);
  }
  auto r = CheckOutput({1.0}, nullptr, Floats({nan}), DType::kFloat32, kLeetGpu);
  EXPECT_NE(r.Describe("output").find("NaN"), std::string::npos);
}

TEST(ToleranceCheck, ReportsTheWorstElement) {
  auto r = CheckOutput({1, 2, 3}, nullptr, Floats({1, 2.5f, 3}), DType::kFloat32, kLeetGpu);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.worst_index, 1);
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_NE(r.Describe("output").find("output[1] = 2.5, expected 2"), std::string::npos) << r.Describe("output");
}

TEST(ToleranceCheck, ExactForIntegers) {
  int32_t v[2] = {5, 7};
  std::string raw(reinterpret_cast<char*>(v), 8);
  EXPECT_TRUE(CheckOutput({5, 7}, nullptr, raw, DType::kInt32, Within(0, 0)).passed);
  EXPECT_FALSE(CheckOutput({5, 8}, nullptr, raw, DType::kInt32, Within(0, 0)).passed);
}

TEST(ToleranceCheck, ExactCheckNamesTheValueAndIgnoresTolerances) {
  int32_t v[3] = {5, 7, 9};
  std::string raw(reinterpret_cast<char*>(v), 12);
  CheckSpec exact{CheckKind::kExact, {1e30, 1e30}, true};  // tolerances and bounds mean nothing to it
  ExpectedValues bounds = {100, 100, 100};
  EXPECT_TRUE(CheckOutput({5, 7, 9}, &bounds, raw, DType::kInt32, exact).passed);
  CheckResult r = CheckOutput({5, 8, 10}, &bounds, raw, DType::kInt32, exact);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.mismatches, 2);
  EXPECT_EQ(r.Describe("histogram"), "histogram[1] = 7, expected 8; 2 of 3 elements differ");
}

TEST(ToleranceCheck, ReferenceBoundWidensEachElementOnItsOwn) {
  // A scan's error model: the allowance of element i grows with i (the reference writes it).
  CheckSpec scan{CheckKind::kTolerance, {1e-6, 0}, true};
  ExpectedValues bounds = {0, 0.5};
  EXPECT_TRUE(CheckOutput({1, 2}, &bounds, Floats({1, 2.25f}), DType::kFloat32, scan).passed);
  CheckResult r = CheckOutput({1, 2}, &bounds, Floats({1.25f, 2}), DType::kFloat32, scan);
  EXPECT_FALSE(r.passed);  // element 0 has no allowance beyond atol
  EXPECT_EQ(r.worst_index, 0);
  // Without "reference_bound" the same bounds are not used.
  CheckSpec plain{CheckKind::kTolerance, {1e-6, 0}, false};
  EXPECT_FALSE(CheckOutput({1, 2}, &bounds, Floats({1, 2.25f}), DType::kFloat32, plain).passed);
}

}  // namespace
}  // namespace judge

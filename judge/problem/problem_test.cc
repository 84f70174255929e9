// SPDX-License-Identifier: MIT
#include "judge/problem/problem.h"

#include <gtest/gtest.h>

#include "judge/build/compile_cache.h"
#include "judge/check/reference.h"
#include "judge/testcase/testcase.h"

namespace judge {
namespace {

const std::string kProblems = std::string(JUDGE_SOURCE_DIR) + "/problems";

TEST(Problem, LoadsTheReduction) {
  auto p = LoadProblem(kProblems, "reduction");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->Declaration(), "void solve(const float* input, float* output, int N)");
  EXPECT_DOUBLE_EQ(p->tolerance.atol, 1e-5);
  EXPECT_DOUBLE_EQ(p->tolerance.rtol, 1e-5);
  EXPECT_EQ(p->MinimumBytes({{"N", 4194304}}).value(), 4194304 * 4 + 4);
  ASSERT_FALSE(p->performance_sizes.empty());
  EXPECT_EQ(p->performance_sizes[0].at("N"), 4194304);
  EXPECT_GT(p->limits.call_seconds, 0);
}

TEST(Problem, UnknownProblemListsTheKnownOnes) {
  auto p = LoadProblem(kProblems, "softmax-typo");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, ErrorCode::kUsage);
  EXPECT_NE(p.error().message.find("known problems: reduction"), std::string::npos) << p.error().message;
}

TEST(Problem, ScalarRangeIsEnforced) {
  auto p = LoadProblem(kProblems, "reduction").value();
  EXPECT_TRUE(p.ValidateScalars({{"N", 1}}).ok());
  EXPECT_FALSE(p.ValidateScalars({{"N", 100000001}}).ok());
  EXPECT_FALSE(p.ValidateScalars({}).ok());
  EXPECT_FALSE(p.ValidateScalars({{"N", 1}, {"M", 2}}).ok());
}

TEST(Reference, SumsInDoubleAndRoundsToFloat) {
  auto p = LoadProblem(kProblems, "reduction").value();
  CompileCache cache("");
  auto ref = Reference::Load(p, cache);
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  Case c;
  c.name = "t";
  c.scalars = {{"N", 8}};
  c.inputs["input"].values = std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(ref->Compute(p, c).value()[0][0], 36.0);
  // 20M ones: exact in double (a float accumulator would stop at 2^24).
  Case ones;
  ones.name = "ones";
  ones.scalars = {{"N", 20000000}};
  ones.inputs["input"].generate = GeneratorSpec{};
  ones.inputs["input"].generate->dist = "constant";
  ones.inputs["input"].generate->value = 1.0;
  EXPECT_EQ(ref->Compute(p, ones).value()[0][0], 20000000.0);
}

}  // namespace
}  // namespace judge

namespace judge {
namespace {

TEST(Problem, OptionalCompatibilityFields) {
  auto p = LoadProblem(kProblems, "reduction").value();
  EXPECT_FALSE(p.zero_init_outputs);  // strict by default: outputs start as NaN poison
  EXPECT_EQ(p.input_variants, 3);
  EXPECT_GT(p.limits.host_memory_mb, 0);
  EXPECT_GT(p.limits.output_kb, 0);
}

}  // namespace
}  // namespace judge

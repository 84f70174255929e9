// SPDX-License-Identifier: MIT
#include "judge/core/verdict.h"

#include <gtest/gtest.h>

namespace judge {
namespace {

TEST(Verdict, CodesAreStable) {
  // These numbers are in every JSON report ever written: changing one breaks consumers.
  EXPECT_EQ(int(Verdict::kAccepted), 0);
  EXPECT_EQ(int(Verdict::kWrongAnswer), 1);
  EXPECT_EQ(int(Verdict::kTimeLimit), 2);
  EXPECT_EQ(int(Verdict::kRuntimeError), 3);
  EXPECT_EQ(int(Verdict::kCompileError), 4);
  EXPECT_EQ(int(Verdict::kInternalError), 9);
}

TEST(Verdict, ShortNamesRoundTrip) {
  for (Verdict v : {Verdict::kAccepted, Verdict::kWrongAnswer, Verdict::kTimeLimit, Verdict::kRuntimeError,
                    Verdict::kCompileError, Verdict::kMemoryLimit, Verdict::kOutputLimit, Verdict::kMemoryViolation,
                    Verdict::kNotRun, Verdict::kInternalError}) {
    auto back = VerdictFromShort(VerdictShort(v));
    ASSERT_TRUE(back.has_value()) << VerdictShort(v);
    EXPECT_EQ(*back, v);
  }
  EXPECT_FALSE(VerdictFromShort("XX").has_value());
}

TEST(Verdict, WorstFollowsDocumentedPriority) {
  EXPECT_EQ(WorstVerdict({}), Verdict::kAccepted);
  EXPECT_EQ(WorstVerdict({Verdict::kAccepted, Verdict::kWrongAnswer}), Verdict::kWrongAnswer);
  EXPECT_EQ(WorstVerdict({Verdict::kWrongAnswer, Verdict::kRuntimeError}), Verdict::kRuntimeError);
  EXPECT_EQ(WorstVerdict({Verdict::kRuntimeError, Verdict::kTimeLimit}), Verdict::kTimeLimit);
  EXPECT_EQ(WorstVerdict({Verdict::kTimeLimit, Verdict::kCompileError}), Verdict::kCompileError);
  EXPECT_EQ(WorstVerdict({Verdict::kCompileError, Verdict::kInternalError, Verdict::kAccepted}),
            Verdict::kInternalError);
}

TEST(Verdict, ExitCodesSeparateJudgeFaultsFromSubmissionFaults) {
  EXPECT_EQ(ExitCodeForVerdict(Verdict::kAccepted), ExitCode::kAccepted);
  EXPECT_EQ(ExitCodeForVerdict(Verdict::kWrongAnswer), ExitCode::kRejected);
  EXPECT_EQ(ExitCodeForVerdict(Verdict::kCompileError), ExitCode::kRejected);
  EXPECT_EQ(ExitCodeForVerdict(Verdict::kTimeLimit), ExitCode::kRejected);
  EXPECT_EQ(ExitCodeForVerdict(Verdict::kInternalError), ExitCode::kInternalError);
  EXPECT_EQ(int(ExitCode::kUsage), 2);
  EXPECT_EQ(int(ExitCode::kNoDevice), 3);
}

}  // namespace
}  // namespace judge

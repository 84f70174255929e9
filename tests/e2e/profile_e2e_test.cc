// SPDX-License-Identifier: MIT
// `judge profile` and --profile without a GPU: what CI can hold them to. Where ncu is missing the
// command says so, how to get it, and exits 5 before compiling; on the host double the whole path
// runs (judge the case, then the profile step) and the report says why nothing was measured,
// without touching the verdict.
#include <gtest/gtest.h>
#include <unistd.h>

#include "tests/judge_cli.h"

namespace judge::testing {
namespace {

// PATH without ncu, and no CUDA_HOME to find it through.
const std::vector<std::string> kWithoutNcu = {"env", "-u", "CUDA_HOME", "-u", "CUDA_PATH", "PATH=/usr/bin:/bin"};

TEST(ProfileE2e, WithoutNcuSaysSoAndExits5) {
  if (::access("/usr/local/cuda/bin/ncu", X_OK) == 0) GTEST_SKIP() << "/usr/local/cuda/bin/ncu exists here";
  JudgeRun r = RunJudgeExactly({"profile", SourcePath("submissions/06_warp_unroll.cu"), "--root", JUDGE_SOURCE_DIR,
                                "--cache-dir", JUDGE_TEST_CACHE_DIR},
                               60, kWithoutNcu);
  EXPECT_EQ(r.exit_code, 5) << r.output;
  EXPECT_NE(r.output.find("Nsight Compute (ncu) was not found"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("verdict is unaffected"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("compiling"), std::string::npos) << "said before any work";
}

TEST(ProfileE2e, BadFormatIsAUsageError) {
  JudgeRun r = RunJudgeExactly({"profile", SourcePath("submissions/06_warp_unroll.cu"), "--format", "xml"}, 60);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--format"), std::string::npos) << r.output;
}

TEST(ProfileE2e, RunWithProfileOnTheHostKeepsItsVerdictAndSaysWhyNothingWasMeasured) {
  JudgeRun r = RunJudge({"run", SourcePath("submissions/host/00_double_sum.cc"), "--device", "host", "--cases",
                         "perf_4m", "--profile", "-q"},
                        600, kWithoutNcu);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  ASSERT_TRUE(r.report.is_object()) << r.output;
  EXPECT_EQ(r.report["verdict"], "AC");
  ASSERT_EQ(r.report["profiles"].size(), 1u) << r.report.dump();
  const Json& p = r.report["profiles"][0];
  EXPECT_EQ(p["case"], "perf_4m");
  EXPECT_EQ(p["status"], "ncu_missing");
  EXPECT_TRUE(p["kernels"].empty());
  EXPECT_NE(r.output.find("not profiled (ncu_missing)"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace judge::testing

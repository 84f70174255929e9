// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "judge/measure/timing_audit.h"
#include "judge/supervise/case_preparation.h"
#include "judge/supervise/sanitize.h"

namespace judge {
namespace {

TEST(SanitizerLog, ParsesRacecheckSummary) {
  std::string log =
      "========= Warning: Race reported between Read access at reduceKernel(const float *, float *, int)+0x410 in 06_warp_unroll.cu:45\n"
      "=========     and Write access at reduceKernel(const float *, float *, int)+0x430 in 06_warp_unroll.cu:45 [240 hazards]\n"
      "========= RACECHECK SUMMARY: 100 hazards displayed (0 errors, 110 warnings)\n";
  SanitizerResult r = ParseSanitizerLog("racecheck", log);
  EXPECT_TRUE(r.ran);
  EXPECT_EQ(r.errors, 0);
  EXPECT_EQ(r.warnings, 110);
  EXPECT_NE(r.findings.find("06_warp_unroll.cu:45"), std::string::npos);
  EXPECT_EQ(r.findings.find("SUMMARY"), std::string::npos);
}

TEST(SanitizerLog, ParsesErrorSummaryAndMissingOutput) {
  SanitizerResult r = ParseSanitizerLog("memcheck", "========= Invalid __global__ read of size 4 bytes\n========= ERROR SUMMARY: 3 errors\n");
  EXPECT_TRUE(r.ran);
  EXPECT_EQ(r.errors, 3);
  EXPECT_FALSE(ParseSanitizerLog("memcheck", "").ran);
}

TEST(VariantSeed, SecretChangesEveryVariantButNotVariantZero) {
  EXPECT_NE(VariantSeed(7, 1, 1), VariantSeed(7, 2, 1));
  EXPECT_NE(VariantSeed(7, 1, 1), VariantSeed(7, 1, 2));
  EXPECT_EQ(VariantSeed(7, 1, 1), VariantSeed(7, 1, 1));
}

TEST(TimingAudit, HonestKernelIsNotFlagged) {
  // 06_warp_unroll on the H200: events 19.4 us, wall 55.8 us, an empty window ~40 us.
  TimingAudit a = AuditTiming({0.0194, 0.0195, 0.0193}, {0.0558, 0.0560, 0.0555}, 0.040);
  EXPECT_FALSE(a.escaped);
  EXPECT_DOUBLE_EQ(a.honest_median_ms, 0.0194);
}

TEST(TimingAudit, WorkOutsideTheEventsIsFlaggedAndTimedByTheWallClock) {
  TimingAudit a = AuditTiming({0.002, 0.002, 0.002}, {0.450, 0.452, 0.449}, 0.040);
  EXPECT_TRUE(a.escaped);
  EXPECT_NEAR(a.honest_median_ms, 0.410, 1e-9);
}

}  // namespace
}  // namespace judge

// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <sstream>
#include <thread>

#include "judge/build/compile_cache.h"
#include "judge/check/reference.h"
#include "judge/problem/problem.h"

#include "judge/check/case_preparation.h"
#include "judge/measure/sample_stats.h"
#include "judge/measure/timing_audit.h"
#include "judge/problem/sample_header.h"
#include "judge/rules/run_verdict.h"
#include "judge/run/case_prefetcher.h"
#include "judge/run/check_problem.h"
#include "judge/run/hidden_size.h"
#include "judge/run/ladder.h"
#include "judge/run/profile_run.h"
#include "judge/run/sanitize.h"
#include "judge/util/fs.h"

namespace judge {
namespace {

TEST(SanitizerLog, ParsesRacecheckSummary) {
  std::string log =
      "========= Warning: Race reported between Read access at reduceKernel(const float *, float *, int)+0x410 in "
      "06_warp_unroll.cu:45\n"
      "=========     and Write access at reduceKernel(const float *, float *, int)+0x430 in 06_warp_unroll.cu:45 [240 "
      "hazards]\n"
      "========= RACECHECK SUMMARY: 100 hazards displayed (0 errors, 110 warnings)\n";
  SanitizerResult r = ParseSanitizerLog("racecheck", log);
  EXPECT_TRUE(r.ran);
  EXPECT_EQ(r.errors, 0);
  EXPECT_EQ(r.warnings, 110);
  EXPECT_NE(r.findings.find("06_warp_unroll.cu:45"), std::string::npos);
  EXPECT_EQ(r.findings.find("SUMMARY"), std::string::npos);
}

TEST(SanitizerLog, ParsesErrorSummaryAndMissingOutput) {
  SanitizerResult r = ParseSanitizerLog(
      "memcheck", "========= Invalid __global__ read of size 4 bytes\n========= ERROR SUMMARY: 3 errors\n");
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

// The reduction problem and its reference, for the case-preparation tests.
class CasePreparation : public ::testing::Test {
 protected:
  CasePreparation()
      : problem(LoadProblem(std::string(JUDGE_SOURCE_DIR) + "/problems", "reduction").value()),
        reference(Reference::Load(problem, cache).value()) {}
  // A case of n uniform floats in [low, high] from `seed`.
  static Case Uniform(int64_t n, double low, double high, uint64_t seed) {
    Case c;
    c.name = "uniform";
    c.scalars = {{"N", n}};
    GeneratorSpec g;
    g.dist = "uniform";
    g.low = low;
    g.high = high;
    g.seed = seed;
    c.inputs["input"].generate = g;
    return c;
  }
  Problem problem;
  CompileCache cache{""};
  Reference reference;
};

TEST_F(CasePreparation, VariantsAndMemo) {
  Case c = Uniform(1000, 0, 1000, 1);
  ExpectedMemo memo;
  auto first = PrepareCase(problem, c, reference, 42, 3, &memo);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_EQ(first->expected.size(), 3u);
  EXPECT_NE(first->expected[0]->values[0][0], first->expected[1]->values[0][0]);  // variants have different sums
  EXPECT_EQ(first->variant_inputs[0].at("input").generate->seed, 1u);             // variant 0 is the published data
  EXPECT_EQ(memo.size(), 3u);
  auto again = PrepareCase(problem, c, reference, 42, 3, &memo);
  EXPECT_EQ(memo.size(), 3u);                         // served from the memo
  EXPECT_EQ(again->expected[1], first->expected[1]);  // the same answer, shared, not copied
  auto other_run = PrepareCase(problem, c, reference, 43, 3, &memo);
  EXPECT_EQ(other_run->expected[0]->values, first->expected[0]->values);
  EXPECT_NE(other_run->expected[1]->values, first->expected[1]->values);  // another secret, other hidden variants
  Case literal = c;
  literal.scalars = {{"N", 2}};
  literal.inputs["input"] = InputSpec{std::vector<double>{1, 2}, std::nullopt};
  EXPECT_EQ(PrepareCase(problem, literal, reference, 42, 3, nullptr)->expected.size(), 1u);
}

// The memo's budget: a sixth of the memory available, never less than 2 GiB; past it, answers are
// not remembered (and the next asker computes again) while the first ones in stay.
// A case prepared ahead is only waited for: no shared turn, which would queue its run behind every
// exclusive turn wanted. One prepared on the spot is heavy host work and waits for a shared turn.
TEST(CasePrefetcher, OnlyACasePreparedOnTheSpotWaitsForASharedTurn) {
  std::atomic<int> prepared_on_other_threads{0};
  const auto taker = std::this_thread::get_id();
  CasePrefetcher prefetch([&](size_t i) -> Expected<PreparedCase> {
    if (std::this_thread::get_id() != taker) ++prepared_on_other_threads;
    PreparedCase c;
    c.spec.name = "case" + std::to_string(i);
    return c;
  });
  GpuTurns turns;
  prefetch.Start(0);
  auto held = turns.Exclusive();  // another run's timed case
  auto ahead = std::async(std::launch::async, [&] { return prefetch.Take(0, &turns); });
  ASSERT_EQ(ahead.wait_for(std::chrono::seconds(10)), std::future_status::ready)
      << "a case prepared ahead waited for a turn";
  auto first = ahead.get();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->spec.name, "case0");
  EXPECT_EQ(prepared_on_other_threads.load(), 1);

  auto on_the_spot = std::async(std::launch::async, [&] { return prefetch.Take(1, &turns); });
  EXPECT_EQ(on_the_spot.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout)
      << "a case prepared on the spot did not wait for the exclusive turn to end";
  held.Release();
  ASSERT_EQ(on_the_spot.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  auto second = on_the_spot.get();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->spec.name, "case1");
  EXPECT_EQ(prepared_on_other_threads.load(), 2);  // the async taker's own thread prepared it
}

// Cases started ahead but skipped (twins not needed) are dropped, and a case never started is made
// on the spot.
TEST(CasePrefetcher, SkippedCasesAreDroppedAndOthersMadeOnTheSpot) {
  std::atomic<int> calls{0};
  CasePrefetcher prefetch([&](size_t i) -> Expected<PreparedCase> {
    ++calls;
    PreparedCase c;
    c.spec.name = "case" + std::to_string(i);
    return c;
  });
  prefetch.Start(1);
  prefetch.Start(2);
  prefetch.Start(2);  // once
  auto third = prefetch.Take(2);
  ASSERT_TRUE(third);
  EXPECT_EQ(third->spec.name, "case2");
  auto fourth = prefetch.Take(3);
  ASSERT_TRUE(fourth);
  EXPECT_EQ(fourth->spec.name, "case3");
  EXPECT_EQ(calls.load(), 3);
}

TEST(ExpectedMemoBudget, IsAShareOfTheHostWithAFloor) {
  EXPECT_EQ(ExpectedMemoBudget(int64_t(120) << 30), (size_t(20) << 30) / sizeof(double));
  EXPECT_EQ(ExpectedMemoBudget(int64_t(4) << 30), kExpectedMemoValues);
  EXPECT_EQ(ExpectedMemoBudget(0), kExpectedMemoValues);  // unknown
  ExpectedMemo memo(6);
  int computed = 0;
  auto four = [&]() -> Expected<ExpectedOutputs> {
    ++computed;
    ExpectedOutputs out;
    out.values.push_back(ExpectedValues(4, 1.0));
    return out;
  };
  ASSERT_TRUE(memo.FindOrCompute("a", four).ok());
  ASSERT_TRUE(memo.FindOrCompute("b", four).ok());  // 8 values > 6: not kept
  EXPECT_EQ(memo.size(), 1u);
  ASSERT_TRUE(memo.FindOrCompute("a", four).ok());
  ASSERT_TRUE(memo.FindOrCompute("b", four).ok());
  EXPECT_EQ(computed, 3);
  EXPECT_EQ(memo.budget_bytes(), 48);
}

// Two runs reaching the same case together: one computes its reference, the other waits for it.
TEST_F(CasePreparation, RunsSideBySideComputeACaseOnce) {
  ExpectedMemo memo;
  std::atomic<int> computed{0};
  auto compute = [&]() -> Expected<ExpectedOutputs> {
    ++computed;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ExpectedOutputs out;
    out.values.push_back(ExpectedValues(4, 2.5));
    return out;
  };
  auto a = std::async(std::launch::async, [&] { return memo.FindOrCompute("case", compute); });
  auto b = std::async(std::launch::async, [&] { return memo.FindOrCompute("case", compute); });
  auto ra = a.get(), rb = b.get();
  ASSERT_TRUE(ra.ok() && rb.ok());
  EXPECT_EQ(computed.load(), 1);
  EXPECT_EQ(*ra, *rb);  // one answer, shared
  // A failed computation is not remembered: the next asker computes again.
  auto failed = memo.FindOrCompute("bad", [&]() -> Expected<ExpectedOutputs> {
    ++computed;
    return MakeError(ErrorCode::kInternal, "reference crashed");
  });
  EXPECT_FALSE(failed.ok());
  EXPECT_TRUE(memo.FindOrCompute("bad", compute).ok());
  EXPECT_EQ(computed.load(), 3);
}

TEST(SideBySide, TheMachineBoundsHowManySubmissionsAreJudgedAtATime) {
  SideBySideFacts h200;  // 16 cores, 120 GB free, 139 GB of GPU memory, prefix_sum's 1.34 GB case
  h200.submissions = 11;
  h200.cores = 16;
  h200.host_available_bytes = int64_t(120) << 30;
  h200.device_memory_bytes = int64_t(139) << 30;
  h200.largest_case_device_bytes = int64_t(1340) << 20;
  h200.largest_case_buffer_bytes = int64_t(1340) << 20;
  EXPECT_EQ(SubmissionsSideBySide(h200), kMaxSideBySide);
  SideBySideFacts f = h200;
  f.cores = 2;  // CI
  EXPECT_EQ(SubmissionsSideBySide(f), 1);
  f = h200;
  f.host_available_bytes = int64_t(25) << 30;  // 25 GB / (8 x 1.34 GB): 2 runs' host memory
  EXPECT_EQ(SubmissionsSideBySide(f), 2);
  f = h200;  // vector_add's case: 4.5 GiB of buffers and 3.5 GiB of held outputs (the checked call's
  // and 6 kept slots, on the device alone); 125 GiB free less the memo's sixth: 104 GiB / (8 x 4.5 GiB)
  f.host_available_bytes = int64_t(104) << 30;
  f.largest_case_device_bytes = int64_t(8) << 30;
  f.largest_case_buffer_bytes = int64_t(4608) << 20;
  EXPECT_EQ(SubmissionsSideBySide(f), 2);
  f.largest_case_buffer_bytes = f.largest_case_device_bytes;  // counted as host memory, they would cost a run
  EXPECT_EQ(SubmissionsSideBySide(f), 1);
  f = h200;
  f.device_memory_bytes = int64_t(16) << 30;
  f.largest_case_device_bytes = int64_t(6) << 30;  // 16 GB / (6 + 1) GB
  f.largest_case_buffer_bytes = int64_t(4) << 30;
  f.host_available_bytes = 0;  // unknown: not a bound
  EXPECT_EQ(SubmissionsSideBySide(f), 2);
  f = h200;
  f.submissions = 3;
  EXPECT_EQ(SubmissionsSideBySide(f), 3);
  f.requested = 8;  // asked: as many as there are submissions, whatever the machine
  f.cores = 2;
  EXPECT_EQ(SubmissionsSideBySide(f), 3);
  f.one_at_a_time = true;  // --profile, --sanitize
  EXPECT_EQ(SubmissionsSideBySide(f), 1);
}

// LeetGPU's lc7: 10,000 values in [-1000, 1000] sum to ~N(0, 57735). A secret draw that cancels to
// near zero shrinks the relative tolerance a thousandfold (a correct float-atomic kernel got WA on
// the H200 that way); hidden variants are kept within a factor of 2 of the published sum.
TEST_F(CasePreparation, HiddenVariantsAreAboutAsLargeAsThePublishedOne) {
  const Case c = Uniform(10000, -1000, 1000, 10000);
  int redrawn = 0;
  for (uint64_t secret = 1; secret <= 60; ++secret) {
    auto prepared = PrepareCase(problem, c, reference, secret, 3, nullptr);
    ASSERT_TRUE(prepared.ok()) << prepared.error().message;
    ASSERT_EQ(prepared->expected.size(), 3u);
    const double published = std::fabs(prepared->expected[0]->values[0][0]);
    ASSERT_GT(published, 0);
    for (int k = 1; k < 3; ++k) {
      const double hidden = std::fabs(prepared->expected[size_t(k)]->values[0][0]);
      EXPECT_GE(hidden, published / kVariantMagnitudeRatio) << "secret " << secret << " variant " << k;
      EXPECT_LE(hidden, published * kVariantMagnitudeRatio) << "secret " << secret << " variant " << k;
      uint64_t seed = prepared->variant_inputs[size_t(k)].at("input").generate->seed;
      EXPECT_NE(seed, 10000u);
      redrawn += seed != VariantSeed(10000, secret, k);
    }
  }
  EXPECT_GT(redrawn, 10);  // most first draws land outside the window here: the rule did something
}

TEST(DeviceBytes, OutputsHeldOnTheDeviceAreCountedApartFromTheBuffers) {
  auto problem = LoadProblem(std::string(JUDGE_SOURCE_DIR) + "/problems", "vector_add").value();
  const int64_t n = int64_t(1) << 27, bytes = 4 * n;  // A, B -> C, float32
  Case perf;
  perf.name = "perf";
  perf.kind = CaseKind::kPerformance;
  perf.scalars = {{"N", n}};
  perf.inputs["A"].generate = GeneratorSpec{};
  perf.inputs["B"].generate = GeneratorSpec{};
  const CaseDeviceBytes big = DeviceBytesOfCase(problem, perf);
  const int64_t copies = problem.input_variants + 1;  // the variants and the fresh buffer
  EXPECT_GE(big.buffers, (2 * copies + 1) * bytes);   // and a guard each
  EXPECT_LT(big.buffers, (2 * copies + 1) * bytes + (int64_t(1) << 20));
  // The checked call's outputs and the kept fresh calls' slots: 6 of 512 MiB, twice the 3 calls
  // checked (256 MiB of inputs and outputs make fewer than the floor of 3).
  EXPECT_EQ(big.held_outputs, (1 + 6) * bytes);
  EXPECT_EQ(big.total(), big.buffers + big.held_outputs);

  Case small = perf;  // 16 KiB of outputs travel with every call: nothing held
  small.scalars = {{"N", 4096}};
  EXPECT_EQ(DeviceBytesOfCase(problem, small).held_outputs, 0);
  Case functional = perf;  // large, but not a performance case: only the checked call's outputs
  functional.kind = CaseKind::kFunctional;
  EXPECT_EQ(DeviceBytesOfCase(problem, functional).held_outputs, bytes);
}

TEST(HiddenSize, EveryGeneratedPerformanceCaseGetsAnUnpredictableTwin) {
  auto problem = LoadProblem(std::string(JUDGE_SOURCE_DIR) + "/problems", "reduction").value();
  Case perf;
  perf.name = "perf_4m";
  perf.kind = CaseKind::kPerformance;
  perf.scalars = {{"N", 4194304}};
  perf.inputs["input"].generate = GeneratorSpec{};
  Case literal = perf;
  literal.name = "tiny";
  literal.inputs["input"] = InputSpec{std::vector<double>{1}, std::nullopt};
  literal.scalars = {{"N", 1}};
  std::vector<Case> a = {perf, literal}, b = a;
  AddHiddenSizeCases(problem, 1, &a);
  AddHiddenSizeCases(problem, 2, &b);
  ASSERT_EQ(a.size(), 3u);  // the literal case gets no twin
  int64_t na = a[2].scalars.at("N"), nb = b[2].scalars.at("N");
  EXPECT_EQ(a[2].name, "perf_4m" + std::string(kHiddenSuffix));
  EXPECT_LT(na, 4194304 * 99 / 100 + 1);
  EXPECT_GT(na, 4194304 * 9 / 10);
  EXPECT_NE(na, nb);  // another run, another size
}

TEST(HiddenSize, FlagsAnOfficialSizeThatIsMuchFaster) {
  CaseResult official, twin;
  official.name = "perf_4m";
  official.kind = twin.kind = CaseKind::kPerformance;
  twin.name = "perf_4m" + std::string(kHiddenSuffix);
  official.gbps = 3000;
  twin.gbps = 900;
  std::vector<CaseResult> results = {official, twin};
  FlagSizeSpecialCasing(&results);
  ASSERT_EQ(results[0].flags.size(), 1u);
  EXPECT_NE(results[0].flags[0].find("special-cased size"), std::string::npos);
  results[1].gbps = 2800;
  results[0].flags.clear();
  FlagSizeSpecialCasing(&results);
  EXPECT_TRUE(results[0].flags.empty());
}

TEST(HiddenSize, TwinIsSkippedOnlyWhenTheOfficialTimeCannotRank) {
  TimingPolicy perf{5, 30, 500, 2.0, 0.0025};
  Case twin;
  twin.name = "perf_100m" + std::string(kHiddenSuffix);
  CaseResult other, official;
  other.name = "perf_4m";
  official.name = "perf_100m";
  official.verdict = other.verdict = Verdict::kAccepted;
  official.event = Summarize({0.092, 0.093, 0.092});
  official.wall = Summarize({0.2, 0.2, 0.2});
  std::vector<CaseResult> results = {other, official};
  EXPECT_FALSE(TwinNotNeeded(twin, results, perf));  // a fast, accepted official: the twin runs
  results[1].event = Summarize({2700});              // one 2.7 s call: the serial kernel
  results[1].wall = Summarize({2710});
  auto skipped = TwinNotNeeded(twin, results, perf);
  ASSERT_TRUE(skipped);
  EXPECT_EQ(skipped->official, 1u);
  EXPECT_NE(skipped->why.find("2.71 s"), std::string::npos) << skipped->why;
  NoteSkippedTwin(*skipped, &results);
  EXPECT_NE(results[1].detail.find("twin was not run: its one call took 2.71 s"), std::string::npos)
      << results[1].detail;
  EXPECT_TRUE(results[0].detail.empty());
  results[1] = official;
  results[1].event = Summarize({1500});  // one call under the budget: the twin runs
  results[1].wall = Summarize({1510});
  EXPECT_FALSE(TwinNotNeeded(twin, results, perf));
  results[1] = official;
  results[1].verdict = Verdict::kWrongAnswer;
  EXPECT_TRUE(TwinNotNeeded(twin, results, perf));
  // Another case rejected the run: no time of it ranks, so no twin guards one.
  results[1] = official;
  results[0].verdict = Verdict::kWrongAnswer;
  skipped = TwinNotNeeded(twin, results, perf);
  ASSERT_TRUE(skipped);
  EXPECT_EQ(skipped->why, "the run was already rejected (perf_4m: WA)");
  results[0].verdict = Verdict::kAccepted;
  results[1].verdict = Verdict::kWrongAnswer;
  Case not_a_twin = twin;
  not_a_twin.name = "perf_100m";
  EXPECT_FALSE(TwinNotNeeded(not_a_twin, results, perf));
  EXPECT_FALSE(TwinNotNeeded(twin, {other}, perf));  // the official did not run (not selected)
  // Asked ahead (whether to prepare its inputs) in a rejected run: not needed, before its official ran.
  other.verdict = Verdict::kWrongAnswer;
  skipped = TwinNotNeeded(twin, {other}, perf);
  ASSERT_TRUE(skipped);
  EXPECT_EQ(skipped->official, SkippedTwin::kNotYetRun);
  std::vector<CaseResult> only_other = {other};
  NoteSkippedTwin(*skipped, &only_other);  // nothing to note it on, and no crash
  EXPECT_TRUE(only_other[0].detail.empty());
}

// --- judge profile's steps in the engine ---------------------------------------------------

TEST(ProfileRun, NcuRunsTheWorkerMeasuringOnlyTheOpenedRangeIntoALogFile) {
  auto argv = NcuWrapper("/opt/ncu", "/tmp/x/ncu.csv");
  std::string joined;
  for (const auto& a : argv) joined += a + " ";
  EXPECT_EQ(argv.front(), "/opt/ncu");
  EXPECT_NE(joined.find("--profile-from-start off"), std::string::npos);
  EXPECT_NE(joined.find("--clock-control none"), std::string::npos) << "the clocks the judge times at";
  EXPECT_NE(joined.find("--csv --page raw --metrics " + profile::MetricsArgument()), std::string::npos);
  EXPECT_EQ(argv.back(), "/tmp/x/ncu.csv");
}

TEST(ProfileRun, WorkFactsFromTheProblem) {
  auto problem = LoadProblem(std::string(JUDGE_SOURCE_DIR) + "/problems", "reduction").value();
  profile::WorkFacts w = WorkFactsOf(problem, {{"N", 4194304}});
  EXPECT_EQ(w.output_elements, 1);
  EXPECT_GE(w.useful_bytes, 4.0 * 4194304);
  EXPECT_GT(w.useful_flops, 0);
}

TEST(ProfileRun, ProfilesTheFirstAcceptedOfficialPerformanceCase) {
  CaseResult small, perf, twin;
  small.name = "example";
  small.verdict = Verdict::kAccepted;
  perf.name = "perf_4m";
  perf.kind = CaseKind::kPerformance;
  perf.verdict = Verdict::kAccepted;
  twin = perf;
  twin.name = "perf_4m_unpredictable_size";
  std::string why;
  EXPECT_EQ(CaseToProfile({small, twin, perf}, "", &why), 2u);
  EXPECT_EQ(CaseToProfile({small, perf}, "example", &why), 0u);
  EXPECT_FALSE(CaseToProfile({small}, "", &why));
  EXPECT_EQ(why, "no performance case was judged");
  perf.verdict = Verdict::kWrongAnswer;
  EXPECT_FALSE(CaseToProfile({perf}, "", &why));
  EXPECT_NE(why.find("not accepted (WA)"), std::string::npos) << why;
  // An accepted performance case of a run an earlier case rejected was only checked: its median
  // comes from a few calls, so it is not profiled, asked for by name or not.
  perf.verdict = Verdict::kAccepted;
  perf.flags.push_back(CheckedOnlyFlag("example", Verdict::kWrongAnswer));
  EXPECT_FALSE(CaseToProfile({small, perf}, "", &why));
  EXPECT_NE(why.find("only checked"), std::string::npos) << why;
  EXPECT_FALSE(CaseToProfile({small, perf}, "perf_4m", &why));
}

// The ladder with --profile: each rung's bottleneck and what changed from the one before, on the
// H200 recordings of reduction 08 and 09 (09's grid of 1,024 blocks leaves the atomics behind).
TEST(ProfileRun, LadderSaysWhatChangedBetweenRungs) {
  std::vector<LadderRung> rungs;
  for (const char* name : {"08_warp_shuffle", "09_grid_stride"}) {
    auto csv = ReadFile(std::string(JUDGE_SOURCE_DIR) + "/judge/profile/testdata/h200/reduction-" + name + ".csv");
    ASSERT_TRUE(csv.ok());
    LadderRung r;
    r.name = name;
    r.report.profiles.push_back(profile::ProfileFromNcu(*csv, {}, {4627, 63900, 132}, {4.0 * 4194304 + 4, 4194304, 1}));
    r.report.profiles.back().case_name = "perf_4m";
    auto header = ReadSampleHeader(std::string(JUDGE_SOURCE_DIR) + "/submissions/" + name + ".cu");
    ASSERT_TRUE(header.ok());
    ASSERT_FALSE(header->article.empty()) << name << ": the sample says what its article claims";
    r.article = header->article;
    rungs.push_back(std::move(r));
  }
  std::ostringstream out;
  WriteLadderText(rungs, out);
  EXPECT_NE(out.str().find("08_warp_shuffle (perf_4m): reduceKernel"), std::string::npos) << out.str();
  // Side by side: the judge's diagnosis, then what the article said of the version.
  EXPECT_NE(out.str().find("  article: " + rungs[1].article), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("from 08_warp_shuffle: +latency_bound -same_address_atomics"), std::string::npos)
      << out.str();
  // In Markdown the article's line is an item nested under its rung's, not a sibling.
  std::ostringstream md;
  WriteLadderMarkdown(rungs, md);
  EXPECT_NE(md.str().find("\n- 09_grid_stride (perf_4m): "), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("\n  - article: " + rungs[1].article + "\n"), std::string::npos) << md.str();
}

TEST(ProfileRun, AProfiledWorkerKeepsRootOnlyWhereTheCountersNeedIt) {
  using Layers = std::vector<std::string>;
  const Layers tool = {"network_namespace", "no_new_code", "internet_sockets", "netlink_sockets"};  // ncu's needs
  Layers as_root = tool;
  as_root.push_back("unprivileged");
  EXPECT_EQ(ProfilerSkippedLayers(true, true), as_root);
  EXPECT_EQ(ProfilerSkippedLayers(std::nullopt, true), as_root);  // the default
  EXPECT_EQ(ProfilerSkippedLayers(false, true), tool);            // open counters: nobody
  EXPECT_EQ(ProfilerSkippedLayers(true, false), tool);            // no root to keep
  for (const auto& kept : {"landlock", "code_seal", "no_new_privs", "rlimits", "seccomp"})
    EXPECT_EQ(std::count(as_root.begin(), as_root.end(), kept), 0) << kept << " holds under the profiler";
}

TEST(CheckProblemSamples, SelectsByNameOrStemInTheFolderOrder) {
  const std::vector<std::string> files = {"/p/00_naive.cu", "/p/02_fast.cu", "/p/90_zero_output.cu"};
  auto picked = SelectSamples(files, {"90_zero_output", "00_naive.cu"});
  ASSERT_TRUE(picked) << picked.error().message;
  EXPECT_EQ(*picked, (std::vector<std::string>{"/p/00_naive.cu", "/p/90_zero_output.cu"}));
  auto unknown = SelectSamples(files, {"02_fats"});
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::kUsage);
  EXPECT_NE(unknown.error().message.find("\"02_fats\""), std::string::npos) << unknown.error().message;
  EXPECT_NE(unknown.error().message.find("00_naive.cu, 02_fast.cu, 90_zero_output.cu"), std::string::npos);
  EXPECT_FALSE(SelectSamples(files, {"02"}));  // a prefix is not a name
}

}  // namespace
}  // namespace judge

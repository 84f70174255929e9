// SPDX-License-Identifier: MIT
// The rules, tested directly: each table row is a situation a worker can be in and the verdict
// (or timing summary) the judge must give for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstring>

#include "judge/problem/problem.h"
#include "judge/rules/case_timing.h"
#include "judge/rules/case_verdict.h"
#include "judge/rules/run_verdict.h"
#include "judge/util/counter_rng.h"

namespace judge {
namespace {

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CaseVerdict, FaultsAreBlamedByWhereTheyHappened) {
  struct Row {
    FaultPhase phase;
    FaultCause cause;
    Verdict verdict;
    const char* says;
  };
  for (const Row& r : std::vector<Row>{
           {FaultPhase::kInit, FaultCause::kOther, Verdict::kInternalError, "device: boom"},
           {FaultPhase::kLoad, FaultCause::kOther, Verdict::kCompileError, "cannot be loaded: boom"},
           {FaultPhase::kSetup, FaultCause::kOther, Verdict::kInternalError, "during setup: boom"},
           {FaultPhase::kSetup, FaultCause::kDeviceMemory, Verdict::kInternalError,
            "during setup"},  // the judge's allocation
           {FaultPhase::kSolve, FaultCause::kOther, Verdict::kRuntimeError, "boom (call 3)"},
           {FaultPhase::kSolve, FaultCause::kDeviceMemory, Verdict::kMemoryLimit,
            "device memory exhausted: boom (call 3)"},
           {FaultPhase::kProtocol, FaultCause::kOther, Verdict::kInternalError, "during protocol"},
       }) {
    Failure f = Faulted(FaultMessage{r.phase, r.cause, "boom"}, 2);
    EXPECT_EQ(f.verdict, r.verdict) << FaultPhaseName(r.phase);
    EXPECT_TRUE(Has(f.detail, r.says)) << f.detail;
  }
}

TEST(CaseVerdict, AWorkerThatEndsIsDescribedInTheSubmissionsTerms) {
  Limits limits;
  limits.output_kb = 1024;
  limits.host_memory_mb = 2048;
  auto exited = [](int code, int sig) {
    WorkerEvent e = WorkerEvent::Of(WorkerEvent::Kind::kExited);
    e.exit_code = code;
    e.signal = sig;
    return e;
  };
  struct Row {
    WorkerEvent event;
    Verdict verdict;
    const char* says;
  };
  for (const Row& r : std::vector<Row>{
           {exited(-1, SIGSEGV), Verdict::kRuntimeError, "killed by SIGSEGV"},
           {exited(-1, SIGKILL), Verdict::kRuntimeError, "out-of-memory killer"},
           {exited(-1, SIGSYS), Verdict::kRuntimeError, "forbidden system call"},
           {exited(7, 0), Verdict::kRuntimeError, "exited with code 7"},
           {WorkerEvent::Broken("bad frame"), Verdict::kRuntimeError, "file descriptor 4"},
           {WorkerEvent::Of(WorkerEvent::Kind::kInterrupted), Verdict::kNotRun, "interrupted"},
           {WorkerEvent::Of(WorkerEvent::Kind::kOutputLimit), Verdict::kOutputLimit, "more than 1024 KiB"},
           {WorkerEvent::Of(WorkerEvent::Kind::kMemoryLimit), Verdict::kMemoryLimit, "more than 2048 MiB"},
           {WorkerEvent::Of(WorkerEvent::Kind::kTimeout), Verdict::kInternalError, "unexpected"},
       }) {
    Failure f = WorkerEnded(r.event, "during call 2 of solve()", limits);
    EXPECT_EQ(f.verdict, r.verdict) << r.says;
    EXPECT_TRUE(Has(f.detail, r.says)) << f.detail;
    if (r.verdict != Verdict::kInternalError) EXPECT_TRUE(Has(f.detail, "during call 2")) << f.detail;
  }
}

// Found by fuzzing: --memory-limit-mb 1 was MLE, blamed on the submission, while the worker opened
// the device.
TEST(CaseVerdict, AWorkerThatEndsBeforeTheSubmissionIsLoadedIsTheJudges) {
  Limits limits;
  limits.host_memory_mb = 1;
  Failure memory =
      WorkerEnded(WorkerEvent::Of(WorkerEvent::Kind::kMemoryLimit), "while opening the device", limits, false);
  EXPECT_EQ(memory.verdict, Verdict::kInternalError);
  EXPECT_TRUE(
      Has(memory.detail, "more than 1 MiB of host memory while opening the device, before any submission code ran"))
      << memory.detail;
  EXPECT_TRUE(Has(memory.detail, "raise --memory-limit-mb")) << memory.detail;
  WorkerEvent crash = WorkerEvent::Of(WorkerEvent::Kind::kExited);
  crash.signal = SIGSEGV;
  EXPECT_EQ(WorkerEnded(crash, "while opening the device", limits, false).verdict, Verdict::kInternalError);
  EXPECT_EQ(
      WorkerEnded(WorkerEvent::Of(WorkerEvent::Kind::kInterrupted), "while opening the device", limits, false).verdict,
      Verdict::kNotRun);
  EXPECT_EQ(WorkerEnded(WorkerEvent::Of(WorkerEvent::Kind::kMemoryLimit), "while handling load", limits, true).verdict,
            Verdict::kMemoryLimit);  // the library's constructors are submission code
}

TEST(CaseVerdict, ATimeoutBeforeTheFirstCallIsTheJudgesAndDuringACallTheSubmissions) {
  EXPECT_EQ(TimedOut(false, 1, 120, 10).verdict, Verdict::kInternalError);
  Failure call = TimedOut(true, 4, 120, 10);
  EXPECT_EQ(call.verdict, Verdict::kTimeLimit);
  EXPECT_TRUE(Has(call.detail, "10.0 s limit per call (call 4)")) << call.detail;
  EXPECT_TRUE(Has(WhileLoading({Verdict::kRuntimeError, "x"}).detail, "static constructors"));
  EXPECT_EQ(WhileLoading({Verdict::kInternalError, "x"}).detail, "x");
}

class JudgeOutputsTest : public ::testing::Test {
 protected:
  JudgeOutputsTest() : problem(LoadProblem(std::string(JUDGE_SOURCE_DIR) + "/problems", "reduction").value()) {}
  static std::string Floats(std::vector<float> v) {
    std::string s(v.size() * sizeof(float), '\0');
    std::memcpy(s.data(), v.data(), s.size());
    return s;
  }
  // Calls of the given kinds and variants, all outputs kept; `outputs` one float per call.
  static CaseReport Report(std::vector<std::pair<CallKind, int>> calls) {
    CaseReport r;
    for (auto [kind, variant] : calls) {
      r.output_calls.push_back(int(r.calls.size()));
      r.calls.push_back(CallRecord{kind, variant, 0.01, 0.02});
    }
    r.output_bytes_per_call = sizeof(float);
    return r;
  }
  Problem problem;
  // Two input variants whose sums are 100 and 200.
  std::vector<ExpectedOutputs> expected = {ExpectedOutputs{{{100.0}}, {}}, ExpectedOutputs{{{200.0}}, {}}};
  OutputJudgement Judge(const CaseReport& report, const std::string& outputs) const {
    return JudgeOutputs(int(expected.size()), report, outputs, [this](int v, std::string_view bytes) {
      return CheckCall(problem, expected[size_t(v)], bytes);
    });
  }
};

TEST_F(JudgeOutputsTest, TableOfOutputs) {
  const std::string poison(4, '\xff');
  struct Row {
    const char* name;
    CaseReport report;
    std::string outputs;
    Verdict verdict;
    const char* says;
    bool diagnose;
  };
  CaseReport with_violation = Report({{CallKind::kCheck, 0}});
  with_violation.violation = Violation{"input_modified", 0, "solve() changed its input"};
  for (const Row& r : std::vector<Row>{
           {"right on every variant", Report({{CallKind::kCheck, 0}, {CallKind::kTimed, 1}}), Floats({100, 200}),
            Verdict::kAccepted, "", false},
           {"wrong first call", Report({{CallKind::kCheck, 0}}), Floats({99}), Verdict::kWrongAnswer, "expected", true},
           {"output never written", Report({{CallKind::kCheck, 0}}), poison, Verdict::kWrongAnswer,
            "did not write output", true},
           {"a later call returns the previous variant's answer",
            Report({{CallKind::kCheck, 0}, {CallKind::kTimed, 1}}), Floats({100, 100}), Verdict::kWrongAnswer,
            "must not be cached", false},
           {"a memory violation outranks the answer", with_violation, Floats({99}), Verdict::kMemoryViolation,
            "changed its input", false},
       }) {
    OutputJudgement j = Judge(r.report, r.outputs);
    EXPECT_EQ(j.verdict, r.verdict) << r.name;
    EXPECT_TRUE(Has(j.detail, r.says)) << r.name << ": " << j.detail;
    EXPECT_EQ(j.diagnose, r.diagnose) << r.name;
    EXPECT_EQ(j.calls_checked, int(r.report.output_calls.size())) << r.name;
  }
}

TEST_F(JudgeOutputsTest, DeterminismIsSeenOnlyAcrossCallsOfTheSameVariant) {
  OutputJudgement once = Judge(Report({{CallKind::kCheck, 0}}), Floats({100}));
  EXPECT_FALSE(once.deterministic.has_value());
  OutputJudgement same = Judge(Report({{CallKind::kCheck, 0}, {CallKind::kTimed, 0}}), Floats({100, 100}));
  EXPECT_EQ(same.deterministic, true);
  OutputJudgement differs = Judge(Report({{CallKind::kCheck, 0}, {CallKind::kTimed, 0}}), Floats({100, 100.00001f}));
  EXPECT_EQ(differs.deterministic, false);
  EXPECT_EQ(differs.verdict, Verdict::kAccepted);  // within tolerance: nondeterminism alone is no failure
}

TEST_F(JudgeOutputsTest, DiagnosticRerunsExplainAWrongFirstCall) {
  auto wrong = [&] { return Judge(Report({{CallKind::kCheck, 0}}), Floats({99})); };
  CheckResult pass;
  pass.passed = true;
  OutputJudgement past_end = wrong();
  EXPECT_TRUE(ExplainWithZeroGuard(problem, pass, &past_end));
  EXPECT_EQ(past_end.verdict, Verdict::kMemoryViolation);
  EXPECT_TRUE(Has(past_end.detail, "reads past the end")) << past_end.detail;

  OutputJudgement not_cleared = wrong();
  EXPECT_FALSE(ExplainWithZeroGuard(problem, std::nullopt, &not_cleared));
  ExplainWithZeroOutputs(pass, &not_cleared);
  EXPECT_EQ(not_cleared.verdict, Verdict::kWrongAnswer);
  EXPECT_TRUE(Has(not_cleared.detail, "without clearing it first")) << not_cleared.detail;

  OutputJudgement plain = wrong();
  CheckResult fail;
  ExplainWithZeroOutputs(fail, &plain);
  EXPECT_EQ(plain.detail, wrong().detail);  // no explanation found: nothing added

  OutputJudgement reproduced = wrong();  // the same call again fails again (or could not run): go on
  EXPECT_FALSE(ExplainNotReproduced(fail, &reproduced));
  EXPECT_FALSE(ExplainNotReproduced(std::nullopt, &reproduced));
  EXPECT_EQ(reproduced.detail, wrong().detail);
  OutputJudgement stateful = wrong();  // right when run again: state kept between calls, still WA
  EXPECT_TRUE(ExplainNotReproduced(pass, &stateful));
  EXPECT_EQ(stateful.verdict, Verdict::kWrongAnswer);
  EXPECT_TRUE(Has(stateful.detail, "depends on what its earlier calls left behind")) << stateful.detail;
}

TEST(RunVerdict, WhenARunStopsEarlyAndWhatTheRestGets) {
  using V = Verdict;
  Limits limits;
  limits.run_seconds = 900;
  struct Row {
    const char* name;
    RunSoFar run;
    std::optional<V> stop;
  };
  for (const Row& r : std::vector<Row>{
           {"nothing run yet", {{}, 0, false}, std::nullopt},
           {"two timeouts", {{V::kAccepted, V::kTimeLimit, V::kTimeLimit}, 10, false}, std::nullopt},
           {"three timeouts in a row", {{V::kTimeLimit, V::kTimeLimit, V::kTimeLimit}, 10, false}, V::kTimeLimit},
           {"three, not in a row",
            {{V::kTimeLimit, V::kTimeLimit, V::kAccepted, V::kTimeLimit}, 10, false},
            std::nullopt},
           {"three crashes in a row",
            {{V::kAccepted, V::kRuntimeError, V::kRuntimeError, V::kRuntimeError}, 10, false},
            V::kNotRun},
           {"two crashes and a timeout",
            {{V::kRuntimeError, V::kRuntimeError, V::kTimeLimit}, 10, false},
            std::nullopt},
           {"over the run's budget", {{V::kAccepted}, 901, false}, V::kNotRun},
           {"interrupted", {{V::kAccepted}, 10, true}, V::kNotRun},
       }) {
    auto stop = StopBeforeNextCase(r.run, limits);
    EXPECT_EQ(stop.has_value(), r.stop.has_value()) << r.name;
    if (stop && r.stop) EXPECT_EQ(stop->verdict, *r.stop) << r.name << ": " << stop->detail;
  }
}

// Only the submission's own failures reject a run: the judge's (IE) and a case not run (NR) do not.
TEST(RunVerdict, TheFirstRejectingCaseEndsTheTimingOfTheRest) {
  using V = Verdict;
  EXPECT_EQ(FirstRejection({}), std::nullopt);
  EXPECT_EQ(FirstRejection({V::kAccepted, V::kAccepted}), std::nullopt);
  EXPECT_EQ(FirstRejection({V::kAccepted, V::kInternalError, V::kNotRun}), std::nullopt);
  EXPECT_EQ(FirstRejection({V::kAccepted, V::kInternalError, V::kWrongAnswer, V::kMemoryViolation}), 2u);
  for (V v : {V::kWrongAnswer, V::kTimeLimit, V::kRuntimeError, V::kCompileError, V::kMemoryLimit, V::kOutputLimit,
              V::kMemoryViolation})
    EXPECT_EQ(FirstRejection({V::kAccepted, v}), 1u) << VerdictShort(v);
  EXPECT_EQ(CheckedOnlyFlag("edge_17", V::kMemoryViolation),
            "only checked, not timed: the run was already rejected (edge_17: MV), so no time of it ranks");
  CaseResult c;
  EXPECT_FALSE(OnlyChecked(c));
  c.flags = {"work escaped the event window", CheckedOnlyFlag("edge_17", V::kWrongAnswer)};
  EXPECT_TRUE(OnlyChecked(c));
}

CaseReport Calls(std::vector<CallRecord> calls) {
  CaseReport r;
  r.calls = std::move(calls);
  return r;
}

TEST(CaseTiming, TableOfCalls) {
  using K = CallKind;
  struct Row {
    const char* name;
    CaseReport report;
    TimingContext context;
    int samples;
    double median_ms;
    int discarded;
    const char* flag;  // "" for none
  };
  TimingContext plain;
  TimingContext corrected{0.002, false, 0, ""};
  TimingContext bounded{0, false, 1.0, "a test bound"};
  TimingContext sanitizer{0, true, 0, ""};
  for (const Row& r : std::vector<Row>{
           {"warm-ups are not samples",
            Calls({{K::kCheck, 0, 1.0, 1.1},
                   {K::kWarmup, 1, 0.5, 0.6},
                   {K::kTimed, 0, 0.2, 0.3},
                   {K::kTimed, 1, 0.4, 0.5},
                   {K::kTimed, 2, 0.3, 0.4}}),
            plain, 3, 0.3, 0, ""},
           {"the empty window is subtracted", Calls({{K::kTimed, 0, 0.012, 0.02}}), corrected, 1, 0.010, 0, ""},
           {"throttled samples go while steady ones exist",
            Calls({{K::kTimed, 0, 0.2, 0.3, 1900}, {K::kTimed, 0, 0.9, 1.0, 900, true}}), plain, 1, 0.2, 1, ""},
           {"throttled throughout is flagged",
            Calls({{K::kTimed, 0, 0.9, 1.0, 900, true}, {K::kTimed, 0, 0.9, 1.0, 900, true}}), plain, 2, 0.9, 0,
            "throttled through every timed call"},
           {"a first call over the budget is the figure", Calls({{K::kCheck, 0, 2500, 2501}}), plain, 1, 2500, 0, ""},
           {"a sanitizer run has no figure", Calls({{K::kCheck, 0, 2500, 2501}}), sanitizer, 0, 0, 0, ""},
           {"work the events did not see is flagged",
            Calls({{K::kTimed, 0, 0.01, 5.0}, {K::kTimed, 0, 0.01, 5.0}, {K::kTimed, 0, 0.01, 5.0}}), plain, 3, 0.01, 0,
            "escaped the event window"},
           {"faster than the memory can deliver is flagged", Calls({{K::kTimed, 0, 0.001, 0.002}}), bounded, 1, 0.001,
            0, "implausible"},
       }) {
    CaseResult result;
    result.min_bytes = 400 << 20;
    result.work = Work{400 << 20, 0, 0};
    SummarizeTiming(r.report, {}, r.context, &result);
    EXPECT_EQ(int(result.samples.size()), r.samples) << r.name;
    EXPECT_NEAR(result.event.median, r.median_ms, 1e-9) << r.name;
    EXPECT_EQ(result.throttled_discarded, r.discarded) << r.name;
    bool flagged = false;
    for (const auto& f : result.flags) flagged |= *r.flag && Has(f, r.flag);
    EXPECT_EQ(flagged, *r.flag != '\0') << r.name;
    if (!*r.flag) EXPECT_TRUE(result.flags.empty()) << r.name << ": " << result.flags.front();
  }
}

TEST(CaseTiming, TheRankedFigureIsTheHonestMedianAndSamplesKeepTheirProcess) {
  CaseResult result;
  result.min_bytes = 1'000'000;
  result.work = Work{1'000'000, 0, 0};
  SummarizeTiming(
      Calls({{CallKind::kTimed, 0, 0.1, 0.2}, {CallKind::kTimed, 1, 0.3, 0.4}, {CallKind::kTimed, 2, 0.2, 0.3}}),
      {0, 1, 1}, TimingContext{}, &result);
  EXPECT_DOUBLE_EQ(result.audit.honest_median_ms, result.event.median);
  EXPECT_NEAR(result.gbps, 1'000'000 / 0.2e-3 / 1e9, 1e-9);
  ASSERT_EQ(result.samples.size(), 3u);
  EXPECT_EQ(result.samples[1].process, 1);
  EXPECT_EQ(result.samples[2].variant, 2);
  EXPECT_EQ(result.bound, Bound::kUnknown);  // no ceilings measured: no percentage
  EXPECT_EQ(result.roofline_pct, 0);
  // With the GPU's ceilings, the same median places the work on the roofline.
  TimingContext measured;
  measured.ceilings = Ceilings{10, 8, 100, ""};
  CaseResult roof;
  roof.work = Work{1'000'000, 0, 4'000'000};
  roof.min_bytes = roof.work.bytes();
  SummarizeTiming(
      Calls({{CallKind::kTimed, 0, 0.1, 0.2}, {CallKind::kTimed, 1, 0.3, 0.4}, {CallKind::kTimed, 2, 0.2, 0.3}}), {},
      measured, &roof);
  EXPECT_NEAR(roof.gflops, 4'000'000 / 0.2e-3 / 1e9, 1e-9);
  EXPECT_EQ(roof.bound, Bound::kMemory);                  // its bytes take 0.1 ms at 10 GB/s, its flops 0.04 ms
  EXPECT_NEAR(roof.roofline_pct, 100 * 0.1 / 0.2, 1e-9);  // of the 0.2 ms median
}

TEST(CaseVerdict, FreshCallsCheckedAreAsManyAsTheirInputsAndWorkAllowWithinBounds) {
  EXPECT_EQ(FreshCallsToCheck(500, 400'000, 0), 32);    // N = 1e5 floats: the ceiling
  EXPECT_EQ(FreshCallsToCheck(20, 400'000, 0), 20);     // all of them when there are fewer
  EXPECT_EQ(FreshCallsToCheck(30, 16 << 20, 0), 16);    // N = 4M: 256 MiB of inputs
  EXPECT_EQ(FreshCallsToCheck(10, 400'000'000, 0), 3);  // N = 1e8: the floor
  EXPECT_EQ(FreshCallsToCheck(2, 400'000'000, 0), 2);   // never more than there are
  EXPECT_EQ(FreshCallsToCheck(0, 16 << 20, 0), 0);
  // Compute-bound: a 2048^3 matmul has 32 MB of inputs (8 checks by bytes) but 17 GFLOP a call.
  EXPECT_EQ(FreshCallsToCheck(500, 32 << 20, 2.0 * 2048 * 2048 * 2048), 3);
  EXPECT_EQ(FreshCallsToCheck(500, 32 << 20, 2.0 * 512 * 512 * 512), 8);  // 0.27 GFLOP: bytes bind
}

TEST(CaseTiming, TheJudgesClockTableOfCases) {
  struct Row {
    const char* name;
    std::vector<double> judge_ms, worker_ms;
    double calibration_ms, spread_ms;
    bool disagrees;
  };
  for (const Row& r : std::vector<Row>{
           // judge 1.0 - 0.1 = 0.9 ms; the events' 0.88 ms is within 10%
           {"an honest call: events a little under the judge's clock",
            {1.0, 1.0, 1.01},
            {0.88, 0.88, 0.89},
            0.1,
            0.001,
            false},
           {"a timer that runs 2.3x slow", {1.0, 1.0, 1.0}, {0.39, 0.39, 0.39}, 0.1, 0.001, true},
           {"events above the judge's clock are never flagged", {0.5, 0.5}, {0.9, 0.9}, 0.1, 0.001, false},
           // 11_single_pass at N = 1e8 on the H200: 57 us over its events on the judge's clock, honest
           {"the judge's clock's own noise is allowed", {0.7361}, {0.0942}, 0.585, 0.0244, false},
           {"the allowance is not unlimited", {1.100, 1.100}, {0.010, 0.010}, 0.1, 0.002, true},
           {"a noisy calibration widens it", {1.100, 1.100}, {0.010, 0.010}, 0.1, 0.350, false},
           {"minima: preempted calls move nothing", {9.0, 1.0, 7.0}, {0.9, 0.9, 0.9}, 0.1, 0.001, false},
           {"a forger cannot hide behind one slow call", {1.0, 1.0, 0.5}, {0.05, 0.05, 0.05}, 0.1, 0.001, true},
       }) {
    JudgeClockComparison c = CompareWithJudgeClock(r.judge_ms, r.worker_ms, r.calibration_ms, r.spread_ms);
    EXPECT_EQ(c.disagrees, r.disagrees) << r.name << ": judge " << c.judge_ms << " worker " << c.worker_ms
                                        << " allowed " << c.allowed_ms;
  }
  EXPECT_FALSE(CompareWithJudgeClock({}, {}, 0, 0).disagrees);
}

TEST(CaseTiming, TheJudgesClockFlagsOnlyTimedFreshCallsAndSaysWhenItCouldNotCheck) {
  CaseReport rep = Calls({{CallKind::kCheck, 0, 0.2, 0.3},
                          {CallKind::kTimed, 1, 0.2, 0.3, 0, false, true},
                          {CallKind::kTimed, 1, 0.2, 0.3, 0, false, true},
                          {CallKind::kHot, 1, 0.1, 0.2, 0, false, true}});
  TimingContext context;
  context.judge_clock.wanted = true;
  context.judge_clock.call_ms = {{1, 1.0}, {2, 1.0}, {3, 0.2}};
  CaseResult uncalibrated;
  uncalibrated.min_bytes = 1;
  SummarizeTiming(rep, {}, context, &uncalibrated);
  EXPECT_TRUE(uncalibrated.flags.empty());
  EXPECT_TRUE(Has(uncalibrated.judge_clock.note, "not calibrated"));
  context.judge_clock.calibrated = true;
  context.judge_clock.calibration_ms = 0.1;
  CaseResult flagged;
  flagged.min_bytes = 1;
  SummarizeTiming(rep, {}, context, &flagged);
  EXPECT_NEAR(flagged.judge_clock.ms, 0.9, 1e-9);  // the hot call's 0.2 ms is not among them
  ASSERT_EQ(flagged.flags.size(), 1u);
  EXPECT_TRUE(Has(flagged.flags[0], "judge's own clock saw 900 us on its fastest call, the worker's timer 200 us"))
      << flagged.flags[0];
}

}  // namespace
}  // namespace judge

namespace judge {
namespace {

// A problem's own checker that fails is the judge's fault: IE, and no diagnosis of the submission.
TEST(JudgeOutputsChecker, AFailingCheckerIsAnInternalError) {
  CaseReport r;
  r.output_calls = {0};
  r.calls.push_back(CallRecord{CallKind::kCheck, 0, 0.01, 0.02});
  r.output_bytes_per_call = 4;
  OutputJudgement j = JudgeOutputs(1, r, std::string(4, '\0'), [](int, std::string_view) {
    CheckResult failed;
    failed.custom = true;
    failed.checker_error = "the problem's checker failed: killed by SIGSEGV";
    return std::pair<CheckResult, std::string>{failed, "checker"};
  });
  EXPECT_EQ(j.verdict, Verdict::kInternalError);
  EXPECT_EQ(j.detail, "the problem's checker failed: killed by SIGSEGV");
  EXPECT_FALSE(j.diagnose);
}

// Each call's fetch is its own draw: the worker learns nothing of the calls to come from the ones
// it saw fetched, about `size` of the window are fetched, and at most `cap` are held.
TEST(FetchPlan, EachCallIsDrawnOnItsOwn) {
  FetchPlan plan = PlanFetches(3, 30, 64 << 20, 16384);
  EXPECT_EQ(plan.cap, 6u);
  const int runs = 20000;
  std::vector<int> fetched(60, 0);
  double total_in_window = 0;
  for (int run = 0; run < runs; ++run) {
    size_t held = 0;
    for (size_t j = 0; j < 60; ++j) {
      const uint64_t draw = rng::SplitMix64(uint64_t(run) * 1000003 + j);
      auto slot = FetchSlot(plan, j, held, draw);
      // The decision does not depend on what is held: with nothing held, the same draw decides alike.
      EXPECT_EQ(slot.has_value(), FetchSlot(plan, j, 0, draw).has_value());
      if (!slot) continue;
      ++fetched[j];
      if (j < 30) ++total_in_window;
      if (*slot == held) ++held;
      EXPECT_LE(held, plan.cap);
      EXPECT_LT(*slot, plan.cap);
    }
  }
  for (size_t j = 0; j < 30; ++j) EXPECT_NEAR(fetched[j] / double(runs), 0.1, 0.012) << "call " << j;
  EXPECT_NEAR(fetched[59] / double(runs), 3.0 / 60, 0.01);
  EXPECT_NEAR(total_in_window / runs, 3.0, 0.1);  // about `size` fetches when the case stops at the window
}

TEST(FetchPlan, AWindowSmallerThanTheDrawFetchesEveryCallOfIt) {
  FetchPlan plan = PlanFetches(5, 2, 64 << 20, 16384);
  EXPECT_EQ(FetchSlot(plan, 0, 0, 0xffffffffffffffffull), 0u);
  EXPECT_EQ(FetchSlot(plan, 1, 1, 0xffffffffffffffffull), 1u);
  EXPECT_EQ(plan.cap, 10u);
  auto past_cap = FetchSlot(plan, 1, 10, 0xffffffffffffffffull);  // drawn with the cap full:
  ASSERT_TRUE(past_cap.has_value());
  EXPECT_LT(*past_cap, 10u);  // it replaces a held call instead of adding one
}

// The worker keeps the held calls' outputs until the case ends: within a quarter of its host
// memory limit, yet always at least one.
TEST(FetchPlan, HeldOutputsStayWithinAQuarterOfTheWorkersHostMemory) {
  EXPECT_EQ(PlanFetches(3, 30, uint64_t(256) << 20, 16384).cap, 6u);  // 1.5 GiB of 4 GiB
  EXPECT_EQ(PlanFetches(3, 30, uint64_t(1) << 30, 16384).cap, 4u);    // the 1 GiB outputs of a 2^28 scan
  EXPECT_EQ(PlanFetches(3, 30, uint64_t(1) << 30, 2048).cap, 1u);     // a quarter of 2 GiB holds none: one
  EXPECT_EQ(PlanFetches(32, 30, 1024, 16384).cap, size_t(kFreshCallsCheckedMax));
}

// The plan a timed case's request and its device memory are made from.
TEST(FetchPlan, AFreshCasesPlanFollowsItsBytesAndWork) {
  const int64_t mib = int64_t(1) << 20;
  // softmax at 16384 x 4096: 256 MiB in and out a call, 3 checks over the first 30 calls, 6 slots.
  std::optional<FetchPlan> softmax = PlanFreshFetches(256 * mib, uint64_t(256 * mib), 0, 30, 16384);
  ASSERT_TRUE(softmax.has_value());
  EXPECT_EQ(softmax->size, 3u);
  EXPECT_EQ(softmax->window, 30u);
  EXPECT_EQ(softmax->cap, 6u);
  // 1 MiB a call: kFreshCheckBytes affords 128 checks, capped at the maximum.
  EXPECT_EQ(PlanFreshFetches(mib, uint64_t(mib), 0, 30, 16384)->size, size_t(kFreshCallsCheckedMax));
  // A 2048^3 matmul's work bounds it to 3 (17 GFLOP a reference run).
  EXPECT_EQ(PlanFreshFetches(32 * mib, uint64_t(16 * mib), 2.0 * 2048 * 2048 * 2048, 30, 16384)->size, 3u);
  EXPECT_EQ(PlanFreshFetches(mib, uint64_t(mib), 0, 0, 16384)->window, 1u);  // no window: the first call
  // Outputs that travel with every call need no plan (and the worker no slots): a reduction's one float.
  EXPECT_FALSE(PlanFreshFetches(mib, 4, 0, 30, 16384).has_value());
  EXPECT_FALSE(PlanFreshFetches(mib, kSmallOutputBytesPerCall, 0, 30, 16384).has_value());
  EXPECT_TRUE(PlanFreshFetches(mib, kSmallOutputBytesPerCall + 1, 0, 30, 16384).has_value());
}

}  // namespace
}  // namespace judge

// SPDX-License-Identifier: MIT
// What the catalog needs from the judge beyond the reduction, through the real binary and the host
// double: an inout buffer with a float scalar, a problem's own checker, an input solve() may
// overwrite (tests/fixture_root), fresh timed inputs for outputs too large to travel with every
// call, the problem a sample names, check-problem holding samples to their headers, and `list`.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/judge_cli.h"

namespace judge::testing {
namespace {

const std::string& Fixtures() {
  static const std::string root = SourcePath("tests/fixture_root");
  return root;
}

JudgeRun CheckProblem(const std::string& name, const std::string& root) {
  return RunJudgeExactly({"check-problem", name, "--device", "host", "--root", root, "-q"}, 600);
}

bool Has(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

class FixtureProblem : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureProblem, HoldsEverySampleToItsHeader) {
  JudgeRun r = CheckProblem(GetParam(), Fixtures());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Has(r.output, "result: ok")) << r.output;
  EXPECT_FALSE(Has(r.output, "FAIL")) << r.output;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, FixtureProblem, ::testing::Values("scale_inplace", "compact", "scratch_sum"));

TEST(CheckProblem, FailsASampleWhoseHeaderLies) {
  JudgeRun r = CheckProblem("mislabelled", Fixtures());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(Has(r.output, "FAIL  sample 00_claims_accepted.cc: WA (expected AC)")) << r.output;
  EXPECT_TRUE(Has(r.output, "result: FAILED")) << r.output;
  EXPECT_EQ(CheckProblem("no_such_problem", Fixtures()).exit_code, 2);
}

// An author writing one sample checks it alone; the result says the check was not a full one,
// and a misspelt name is bad input that lists the samples there are, before anything is judged.
TEST(CheckProblem, SamplesNamesTheOnesToCheck) {
  JudgeRun r = RunJudgeExactly({"check-problem", "compact", "--device", "host", "--root", Fixtures(), "-q", "--samples",
                                "91_wrong_value,00_in_order"},
                               600);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Has(r.output, "ok    sample 00_in_order.cc: AC (expected AC)")) << r.output;
  EXPECT_TRUE(Has(r.output, "ok    sample 91_wrong_value.cc: WA (expected WA)")) << r.output;
  EXPECT_FALSE(Has(r.output, "sample 01_reversed.cc:")) << r.output;
  EXPECT_TRUE(Has(r.output, "2 left out by --samples, not checked: 01_reversed.cc, 90_drops_the_last.cc")) << r.output;
  EXPECT_TRUE(Has(r.output, "; 2 sample(s) left out by --samples (not a full check)")) << r.output;
  JudgeRun typo = RunJudgeExactly(
      {"check-problem", "compact", "--device", "host", "--root", Fixtures(), "-q", "--samples", "00_in_ordr"});
  EXPECT_EQ(typo.exit_code, 2) << typo.output;
  EXPECT_TRUE(Has(typo.output, "--samples names \"00_in_ordr\"")) << typo.output;
  EXPECT_TRUE(Has(typo.output, "00_in_order.cc, 01_reversed.cc, 90_drops_the_last.cc, 91_wrong_value.cc"))
      << typo.output;
  EXPECT_FALSE(Has(typo.output, "  ok    ")) << typo.output;  // no check was begun
}

// Judged two at a time (the GPU suite does the same on the H200, where the timed cases take turns),
// every sample still gets its own verdict, in the samples' order, and the cases' expected outputs
// are prepared ahead of the runs.
TEST(CheckProblem, SamplesJudgedSideBySideKeepTheirVerdictsAndOrder) {
  JudgeRun r = RunJudgeExactly(
      {"check-problem", "compact", "--device", "host", "--root", Fixtures(), "--side-by-side", "2", "-v"}, 600);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Has(r.output, "judging the samples 2 at a time")) << r.output;
  EXPECT_TRUE(std::regex_search(
      r.output, std::regex(R"(expected outputs of \d+ cases prepared ahead in [0-9.]+ s \([1-9]\d* in the memo\))")))
      << r.output;
  const size_t a = r.output.find("ok    sample 00_in_order.cc: AC (expected AC)");
  const size_t b = r.output.find("ok    sample 01_reversed.cc: AC (expected AC)");
  const size_t c = r.output.find("ok    sample 90_drops_the_last.cc: WA (expected WA)");
  const size_t d = r.output.find("ok    sample 91_wrong_value.cc: WA (expected WA)");
  EXPECT_TRUE(a < b && b < c && c < d && d != std::string::npos) << r.output;
  EXPECT_TRUE(Has(r.output, "result: ok")) << r.output;
  JudgeRun bad = RunJudgeExactly(
      {"check-problem", "compact", "--device", "host", "--root", Fixtures(), "-q", "--side-by-side", "-1"});
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_TRUE(Has(bad.output, "--side-by-side must be 0 to 64")) << bad.output;
}

// The timed cases too, two runs at a time: each run hands the GPU on after its timed calls, and
// its outputs and fresh calls are still checked (on a thread of their own, in no turn) before the
// sample's verdict; the samples keep theirs.
TEST(CheckProblem, TimedCasesSideBySideHandTheGpuOnAndAreStillChecked) {
  JudgeRun r = RunJudgeExactly({"check-problem", "compact", "--device", "host", "--root", Fixtures(), "--side-by-side",
                                "2", "--cases", "perf,example", "-v"},
                               600);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::regex handed(R"(case perf_small: GPU handed on after [0-9.]+ s in the exclusive turn)");
  EXPECT_EQ(std::distance(std::sregex_iterator(r.output.begin(), r.output.end(), handed), std::sregex_iterator()), 2)
      << r.output;  // the two AC samples' official case; the WA ones' are checked only, in a shared turn
  const std::regex fresh(R"(perf_small: [1-9]\d* fresh calls checked by the reference)");
  EXPECT_EQ(std::distance(std::sregex_iterator(r.output.begin(), r.output.end(), fresh), std::sregex_iterator()), 2)
      << r.output;
  EXPECT_TRUE(Has(r.output, "ok    sample 00_in_order.cc: AC (expected AC)")) << r.output;
  EXPECT_TRUE(Has(r.output, "ok    sample 01_reversed.cc: AC (expected AC)")) << r.output;
  EXPECT_TRUE(Has(r.output, "ok    sample 90_drops_the_last.cc: WA (expected WA)")) << r.output;
  EXPECT_TRUE(Has(r.output, "result: ok")) << r.output;
}

// Found on the H200: check-problem stopped by a scheduler's timeout printed "result: ok" over the
// samples it had reached. Interrupted during the first sample, the others are named as not checked.
TEST(CheckProblem, AnInterruptedCheckDoesNotHoldTheSamplesItNeverReached) {
  int out[2];
  ASSERT_EQ(::pipe(out), 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(out[1], STDERR_FILENO);
    ::close(out[0]);
    ::execl(JUDGE_BINARY, JUDGE_BINARY, "check-problem", "compact", "--device", "host", "--root", Fixtures().c_str(),
            "--cache-dir", JUDGE_TEST_CACHE_DIR, nullptr);
    _exit(127);
  }
  ::close(out[1]);
  std::string text;
  char buf[4096];
  bool sent = false;
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;) {
    text.append(buf, size_t(n));
    if (!sent && Has(text, "grading ")) {  // the first sample is being graded
      ::kill(pid, SIGINT);
      sent = true;
    }
  }
  ::close(out[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(sent) << text;
  ASSERT_TRUE(WIFEXITED(status)) << text;
  EXPECT_NE(WEXITSTATUS(status), 0) << text;
  EXPECT_TRUE(Has(text, "not checked (interrupted): ")) << text;
  EXPECT_TRUE(Has(text, "91_wrong_value.cc")) << text;
  EXPECT_FALSE(Has(text, "result: ok")) << text;
}

TEST(Problems, ASampleNamesItsProblem) {
  // No --problem: the file's `// problem: compact` line decides, and its own checker accepts an
  // order no element-wise check would.
  JudgeRun r = RunJudge({"run", Fixtures() + "/submissions/compact/host/01_reversed.cc", "--device", "host", "--root",
                         Fixtures(), "--cases", "example,functional", "-q"});
  ASSERT_TRUE(r.report.is_object()) << r.output;
  EXPECT_EQ(r.report["problem"]["name"], "compact");
  EXPECT_EQ(r.report["verdict"], "AC") << r.output;
}

// Found in review: a header is a student's text. It may name a problem of the catalog, never a
// folder elsewhere (whose reference.cc the judge would compile and load), and a batch ignores it.
TEST(Problems, AHeaderCannotPointTheJudgeOutsideTheCatalog) {
  TempFolder dir("judge-header-");
  std::string file = dir.Write(
      "escape.cc", "// problem: ../../tmp/evil\nextern \"C\" void solve(const float*, float* o, int) { o[0] = 0; }\n");
  JudgeRun r = RunJudgeExactly({"run", file, "--device", "host", "-q"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(Has(r.output, "unknown problem \"../../tmp/evil\"")) << r.output;
}

TEST(Problems, AnInoutBufferGetsFreshTimedInputsWhenItsOutputsAreLarge) {
  JudgeRun r = RunJudge({"run", Fixtures() + "/submissions/scale_inplace/host/00_correct.cc", "--device", "host",
                         "--root", Fixtures(), "--cases", "perf_1m", "-q"});
  ASSERT_TRUE(r.report.is_object()) << r.output;
  EXPECT_EQ(r.report["verdict"], "AC") << r.output;
  const Json* c = r.Case("perf_1m");
  ASSERT_NE(c, nullptr);
  // 4 MiB of outputs a call: every timed call had inputs of its own (variant -1), and a draw of
  // them was fetched after the call and checked.
  for (const auto& v : (*c)["timing"]["samples"]["variant"]) EXPECT_EQ(v, -1);
  EXPECT_GE((*c)["calls_checked"].get<int>(), 3);
}

// Timed in two worker processes, each one's kept outputs are collected before it exits: calls of
// both are checked, and the case is right.
TEST(Problems, LargeOutputsKeptInEachTimingProcessAreChecked) {
  JudgeRun r = RunJudge({"run", Fixtures() + "/submissions/scale_inplace/host/00_correct.cc", "--device", "host",
                         "--root", Fixtures(), "--cases", "perf_1m", "--timing-processes", "2", "-q"});
  ASSERT_TRUE(r.report.is_object()) << r.output;
  EXPECT_EQ(r.report["verdict"], "AC") << r.output;
  const Json* c = r.Case("perf_1m");
  ASSERT_NE(c, nullptr);
  std::vector<int> process = (*c)["timing"]["samples"]["process"].get<std::vector<int>>();
  EXPECT_EQ(std::set<int>(process.begin(), process.end()), (std::set<int>{0, 1}));
  EXPECT_GE((*c)["calls_checked"].get<int>(), 3);
}

TEST(Problems, AnswersKeptPerAddressAreCaughtOnLargeOutputs) {
  JudgeRun r = RunJudge({"run", SourcePath("tests/host_submissions/vector_add_cache_by_address.cc"), "--device", "host",
                         "--problem", "vector_add", "--testcases", SourcePath("tests/e2e/testcases/vector_add"), "-q"});
  ASSERT_TRUE(r.report.is_object()) << r.output;
  EXPECT_EQ(r.report["verdict"], "WA") << r.output;
  const Json* c = r.Case("perf_256k");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(Has((*c)["detail"].get<std::string>(), "whose inputs were generated when it started")) << (*c)["detail"];
  EXPECT_EQ(r.Case("example")->at("verdict"), "AC");  // right wherever its cache holds the right answer
}

TEST(Problems, AFirstCallWrongOnLargeOutputsIsCaughtAndNotBlamedOnTheGuards) {
  JudgeRun r = RunJudge({"run", SourcePath("tests/host_submissions/vector_add_wrong_first_call.cc"), "--device", "host",
                         "--problem", "vector_add", "--testcases", SourcePath("tests/e2e/testcases/vector_add"),
                         "--cases", "perf_256k", "-q"});
  ASSERT_TRUE(r.report.is_object()) << r.output;
  EXPECT_EQ(r.report["verdict"], "WA") << r.output;
  const Json* c = r.Case("perf_256k");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ((*c)["verdict"], "WA") << r.output;
  // Its reruns pass (its state says "not the first call"): not taken for reading past the input.
  EXPECT_TRUE(Has((*c)["detail"].get<std::string>(), "depends on what its earlier calls left behind"))
      << (*c)["detail"];
}

TEST(Problems, ListShowsEachEntryPointAndHowItIsChecked) {
  JudgeRun r = RunJudgeExactly({"list", "--root", Fixtures()});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Has(r.output, "void solve(float* data, float alpha, int N)")) << r.output;
  EXPECT_TRUE(Has(r.output, "void solve(int* input, int* output, int N)")) << r.output;  // writable: not const
  EXPECT_TRUE(Has(r.output, "check: the problem's own checker")) << r.output;
  JudgeRun one = RunJudgeExactly({"list", "compact", "--root", Fixtures()});
  EXPECT_TRUE(Has(one.output, "perf_small  [performance]")) << one.output;
}

}  // namespace
}  // namespace judge::testing

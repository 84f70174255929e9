// SPDX-License-Identifier: MIT
// The whole judge - CLI, build, cache, worker process, deadlines, crash handling, checking,
// reports - driven through the host test double, so it runs in CI without a GPU. Single hostile
// submissions whose verdict and detail are all there is to assert live in tests/adversarial/.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include <filesystem>
#include <fstream>

#include <set>
#include "judge/core/run_report.h"
#include "judge/measure/sample_stats.h"
#include "judge/rules/case_verdict.h"
#include "judge/util/fs.h"
#include "judge/util/subprocess.h"
#include "tests/judge_cli.h"

namespace judge::testing {
namespace {

JudgeRun RunHostAt(const std::string& path, std::vector<std::string> extra = {},
                   std::vector<std::string> launcher = {}) {
  std::vector<std::string> args = {
      "run", path, "--device", "host", "--testcases", SourcePath("tests/e2e/testcases/reduction"), "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return RunJudge(args, 600, launcher);
}

JudgeRun RunHost(const std::string& submission, std::vector<std::string> extra = {}) {
  return RunHostAt(SourcePath("tests/" + submission), extra);
}

std::vector<std::string> LayerNames(const Json& layers) {
  std::vector<std::string> names;
  for (const auto& p : layers) names.push_back(p["name"]);
  return names;
}

const Json* FindLayer(const Json& layers, const std::string& name) {
  for (const auto& p : layers)
    if (p["name"] == name) return &p;
  return nullptr;
}

// "build sandbox: rlimits network_namespace (OFF) ..." as the text report draws the JSON's layers.
std::string TextLine(const std::string& label, const Json& layers) {
  std::string line = label;
  for (const auto& p : layers) line += " " + p["name"].get<std::string>() + (p["active"].get<bool>() ? "" : " (OFF)");
  return line + "\n";
}

std::string Verdict(const JudgeRun& r, const std::string& c) {
  const Json* j = r.Case(c);
  return j ? (*j)["verdict"].get<std::string>() : "(missing)";
}

std::string Detail(const JudgeRun& r, const std::string& c) {
  const Json* j = r.Case(c);
  return j ? (*j)["detail"].get<std::string>() : "";
}

TEST(HostE2E, CorrectSubmissionIsAcceptedWithTimings) {
  JudgeRun r = RunHost("host_submissions/good_sum.cc");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.report["verdict"], "AC");
  EXPECT_EQ(r.report["device"]["kind"], "host");
  EXPECT_EQ(r.report["cases"].size(), 7u);  // 6 cases + the performance case's unpredictable-size twin
  ASSERT_NE(r.Case("perf_small_unpredictable_size"), nullptr);
  EXPECT_LT((*r.Case("perf_small_unpredictable_size"))["scalars"]["N"].get<int>(), 100000);
  for (const auto& c : r.report["cases"]) {
    EXPECT_EQ(c["verdict"], "AC") << c.dump();
    EXPECT_GE(c["timing"]["device"]["samples"].get<int>(), 1);
    EXPECT_GT(c["timing"]["device"]["median_ms"].get<double>(), 0);
  }
  const Json* perf = r.Case("perf_small");
  ASSERT_NE(perf, nullptr);
  EXPECT_GE((*perf)["timing"]["device"]["samples"].get<int>(), 10);  // the performance policy's minimum
  EXPECT_FALSE((*perf)["timing"].contains("hot"));                   // only with --hot
  // The host double's clock is too cheap to correct for (on the GPU, times are net of the empty
  // event window: tests/gpu); its empty window is still measured and reported.
  EXPECT_GE(r.report["device"]["empty_window_ms"].get<double>(), 0);
  EXPECT_EQ((*perf)["timing"]["window_correction_ms"].get<double>(), 0);
  EXPECT_DOUBLE_EQ((*perf)["timing"]["raw_median_ms"].get<double>(),
                   (*perf)["timing"]["device"]["median_ms"].get<double>());
  EXPECT_EQ((*perf)["timing"]["l2_flush"], "read");
  EXPECT_GT((*perf)["timing"]["gbps"].get<double>(), 0);
  EXPECT_GT(r.report["bandwidth"]["ceiling_gbps"].get<double>(), 0);  // measured (or cached) for this device
  EXPECT_GT((*perf)["timing"]["pct_of_ceiling"].get<double>(), 0);
}

// The host double reports the SM clock that $JUDGE_HOST_CLOCK_MHZ dictates ("PEAK:READINGS...").
class SimulatedClock {
 public:
  explicit SimulatedClock(const char* spec) { ::setenv("JUDGE_HOST_CLOCK_MHZ", spec, 1); }
  ~SimulatedClock() { ::unsetenv("JUDGE_HOST_CLOCK_MHZ"); }
};

TEST(HostE2E, ThrottledSamplesAreDiscardedAndCounted) {
  SimulatedClock clock(
      "2000:2000,2000,2000,900");  // every fourth call ran under 75% of the peak (not a multiple of the 3 variants)
  JudgeRun r = RunHost("host_submissions/good_sum.cc", {"--cases", "perf_small"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Json* perf = r.Case("perf_small");
  ASSERT_NE(perf, nullptr);
  EXPECT_GT((*perf)["timing"]["throttled_discarded"].get<int>(), 0);
  EXPECT_DOUBLE_EQ((*perf)["timing"]["sm_clock_mhz"].get<double>(), 2000);  // only steady samples count
  EXPECT_TRUE((*perf)["flags"].empty()) << (*perf)["flags"].dump();
  // The raw samples are the ones the statistics used: steady calls only, each on inputs of its own.
  const Json& samples = (*perf)["timing"]["samples"];
  ASSERT_EQ(samples["ms"].size(), size_t((*perf)["timing"]["device"]["samples"].get<int>()));
  EXPECT_DOUBLE_EQ(judge::Summarize(samples["ms"].get<std::vector<double>>()).median,
                   (*perf)["timing"]["device"]["median_ms"].get<double>());
  for (const Json& mhz : samples["clock_mhz"]) EXPECT_DOUBLE_EQ(mhz.get<double>(), 2000);
  std::set<int> variants(samples["variant"].begin(), samples["variant"].end());
  EXPECT_EQ(variants, std::set<int>{judge::kFreshSample});
}

TEST(HostE2E, TimingProcessesPoolPerformanceSamplesFromFreshWorkers) {
  JudgeRun r = RunHost("host_submissions/chatty.cc", {"--cases", "perf_small,small_int", "--timing-processes", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Json* perf = r.Case("perf_small");
  ASSERT_NE(perf, nullptr);
  const Json& samples = (*perf)["timing"]["samples"];
  std::vector<int> process = samples["process"].get<std::vector<int>>();
  EXPECT_EQ(std::set<int>(process.begin(), process.end()), (std::set<int>{0, 1, 2}));
  EXPECT_TRUE(std::is_sorted(process.begin(), process.end()));  // one process after another
  EXPECT_EQ(process.size(), size_t((*perf)["timing"]["device"]["samples"].get<int>()));
  EXPECT_EQ((*perf)["verdict"], "AC");
  // Each process's check and warm-up calls were checked, and fresh calls drawn from all of them;
  // the judge's clock was calibrated; what the earlier workers printed is kept.
  EXPECT_GE((*perf)["calls_checked"].get<int>(), 3 + judge::kFreshCallsCheckedMax);
  EXPECT_EQ((*perf)["timing"]["judge_clock"]["note"], "");
  const std::string out = (*perf)["stdout"].get<std::string>();
  size_t lines = 0;
  for (size_t at = out.find("solve called"); at != std::string::npos; at = out.find("solve called", at + 1)) ++lines;
  EXPECT_GE(lines, process.size()) << out.substr(0, 400);
  // Only performance cases are repeated.
  const Json* functional = r.Case("small_int");
  ASSERT_NE(functional, nullptr);
  for (const Json& p : (*functional)["timing"]["samples"]["process"]) EXPECT_EQ(p.get<int>(), 0);
}

TEST(HostE2E, TimingProcessesOutOfRangeIsAUsageError) {
  JudgeRun r = RunHost("host_submissions/good_sum.cc", {"--timing-processes", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--timing-processes must be 1 to 64"), std::string::npos) << r.output;
}

TEST(HostE2E, AGpuThrottledThroughoutIsFlagged) {
  SimulatedClock clock("2000:900");
  JudgeRun r = RunHost("host_submissions/good_sum.cc", {"--cases", "perf_small"});
  const Json* perf = r.Case("perf_small");
  ASSERT_NE(perf, nullptr) << r.output;
  ASSERT_EQ((*perf)["flags"].size(), 1u);
  EXPECT_NE((*perf)["flags"][0].get<std::string>().find("throttled through every timed call"), std::string::npos);
  EXPECT_FALSE((*perf)["ranked"].get<bool>());
}

TEST(HostE2E, HotFigureIsReportedSeparatelyForPerformanceCases) {
  JudgeRun r =
      RunHost("host_submissions/good_sum.cc", {"--cases", "perf_small,small_int", "--hot", "--flush", "write"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Json* perf = r.Case("perf_small");
  ASSERT_NE(perf, nullptr);
  EXPECT_GE((*perf)["timing"]["hot"]["samples"].get<int>(), 1);
  EXPECT_EQ((*perf)["timing"]["l2_flush"], "write");
  EXPECT_FALSE((*r.Case("small_int"))["timing"].contains("hot"));
  EXPECT_NE(r.output.find("hot (L2 not flushed) median"), std::string::npos) << r.output;
}

TEST(HostE2E, SlowCallsSpendLittleTimeOnWarmUpAndSamples) {
  JudgeRun r = RunHost("host_submissions/sleepy_sum.cc", {"--cases", "small_int,perf_small"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Json* c = r.Case("small_int");  // 300 ms > the functional budget of 250 ms
  ASSERT_NE(c, nullptr);
  EXPECT_EQ((*c)["timing"]["device"]["samples"].get<int>(), 1);
  EXPECT_EQ((*c)["timing"]["warmup_calls"].get<int>(), 0);
  EXPECT_GE((*c)["timing"]["device"]["median_ms"].get<double>(), 290);
  // Inside the performance budget (2 s), but 30 samples would not be: no warm-up besides the
  // checked call (a second 300 ms call would end past a tenth of the budget), then three samples
  // if they are quiet, and never more than the budget's 2 s allow (a loaded machine's sleep
  // jitter can keep the noise over target for a few calls).
  const Json* perf = r.Case("perf_small");
  ASSERT_NE(perf, nullptr);
  EXPECT_EQ((*perf)["timing"]["warmup_calls"].get<int>(), 0);
  EXPECT_GE((*perf)["timing"]["device"]["samples"].get<int>(), 3);
  EXPECT_LE((*perf)["timing"]["device"]["samples"].get<int>(), 7);
}

TEST(HostE2E, FloatAccumulationIsWrongOnLargeInputs) {
  JudgeRun r = RunHost("host_submissions/float_accumulate.cc");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.report["verdict"], "WA");
  EXPECT_EQ(Verdict(r, "example"), "AC");
  EXPECT_EQ(Verdict(r, "float_stall_20m_ones"), "WA");
  EXPECT_NE(Detail(r, "float_stall_20m_ones").find("= 16777216, expected 20000000"), std::string::npos)
      << Detail(r, "float_stall_20m_ones");
  EXPECT_GT((*r.Case("float_stall_20m_ones"))["check"]["tolerance_used"].get<double>(), 1000);
}

// Once a case has rejected the run, its performance case is only checked (a correctness case's few
// calls over the variants, no fresh inputs) and carries a flag saying so; no twin runs.
TEST(HostE2E, AfterARejectionThePerformanceCaseIsOnlyChecked) {
  JudgeRun r = RunHost("host_submissions/float_fast_path.cc");
  ASSERT_EQ(Verdict(r, "float_stall_20m_ones"), "WA") << r.output;
  ASSERT_EQ(Verdict(r, "medium_uniform"), "AC") << r.output;  // so the first rejection is the stall
  const Json* perf = r.Case("perf_small");
  ASSERT_NE(perf, nullptr) << r.output;
  EXPECT_EQ((*perf)["verdict"], "AC") << perf->dump();
  EXPECT_GE((*perf)["timing"]["device"]["samples"].get<int>(), 3);
  EXPECT_LE((*perf)["timing"]["device"]["samples"].get<int>(), 20);  // the functional policy's most
  EXPECT_EQ((*perf)["input_variants"].get<int>(), 3);                // every variant still checked
  // (A loaded machine may flag its timing too: the flag is looked for among them.)
  const std::string flag =
      "only checked, not timed: the run was already rejected (float_stall_20m_ones: WA), so no time of it ranks";
  bool flagged = false;
  for (const auto& f : (*perf)["flags"]) flagged |= f == flag;
  EXPECT_TRUE(flagged) << perf->dump();
  EXPECT_EQ(r.Case("perf_small_unpredictable_size"), nullptr);
  EXPECT_NE(
      Detail(r, "perf_small")
          .find("the unpredictable-size twin was not run: the run was already rejected (float_stall_20m_ones: WA)"),
      std::string::npos)
      << Detail(r, "perf_small");
  // An accepted run's performance case is timed in full (HostE2E.CorrectSubmissionIsAcceptedWithTimings).
}

TEST(HostE2E, SegfaultIsARuntimeErrorAndTheJudgeSurvives) {
  JudgeRun r = RunHost("adversarial/host_crash.cc");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.report["verdict"], "RE");
  EXPECT_NE(Detail(r, "example").find("SIGSEGV"), std::string::npos) << Detail(r, "example");
  EXPECT_NE(Detail(r, "example").find("call 1"), std::string::npos);
  // Three crashes in a row end the run: every case still has a verdict, the rest NR with the reason
  // (the performance case and its unpredictable-size twin among them).
  EXPECT_EQ(r.report["cases"].size(), 7u);
  for (size_t i = 0; i < r.report["cases"].size(); ++i)
    EXPECT_EQ(r.report["cases"][i]["verdict"], i < 3 ? "RE" : "NR") << r.report["cases"][i]["name"];
}

TEST(HostE2E, CasesAfterACrashRunInAFreshWorker) {
  JudgeRun r =
      RunHost("host_submissions/crash_on_large.cc", {"--cases", "small_int,medium_uniform,perf_small,after_large"});
  EXPECT_EQ(Verdict(r, "small_int"), "AC");
  EXPECT_EQ(Verdict(r, "medium_uniform"), "RE");
  EXPECT_EQ(Verdict(r, "after_large"), "AC");
  // A failed official performance case cannot rank, so its unpredictable-size twin is not run.
  EXPECT_EQ(Verdict(r, "perf_small"), "RE");
  EXPECT_EQ(r.Case("perf_small_unpredictable_size"), nullptr);
  EXPECT_NE(
      Detail(r, "perf_small").find("the unpredictable-size twin was not run: the official case was not accepted (RE)"),
      std::string::npos)
      << Detail(r, "perf_small");
}

TEST(HostE2E, AfterThreeCrashesInARowTheRestIsNotRun) {
  JudgeRun r = RunHost("host_submissions/crash_on_large.cc");
  EXPECT_EQ(r.report["verdict"], "RE");
  EXPECT_EQ(Verdict(r, "small_int"), "AC");
  EXPECT_EQ(Verdict(r, "medium_uniform"), "RE");
  EXPECT_EQ(Verdict(r, "float_stall_20m_ones"), "RE");
  // A failed official performance case cannot rank, so its unpredictable-size twin is not run.
  EXPECT_EQ(Verdict(r, "perf_small"), "RE");
  EXPECT_EQ(Verdict(r, "after_large"), "NR");
  EXPECT_EQ(Verdict(r, "perf_small_unpredictable_size"), "NR");
  EXPECT_NE(Detail(r, "after_large").find("the 3 cases before it failed at run time"), std::string::npos)
      << Detail(r, "after_large");
}

TEST(HostE2E, HangIsATimeLimitAndIsKilled) {
  JudgeRun r = RunHost("adversarial/host_hang.cc", {"--call-timeout", "0.5", "--cases", "example,after_large"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(Verdict(r, "example"), "TLE");
  EXPECT_EQ(Verdict(r, "after_large"), "TLE");
  EXPECT_NE(Detail(r, "example").find("0.5 s limit per call"), std::string::npos) << Detail(r, "example");
  EXPECT_LT(r.report["seconds"].get<double>(), 30);
}

TEST(HostE2E, AfterThreeTimeoutsInARowTheRestIsNotRun) {
  JudgeRun r = RunHost("adversarial/host_hang.cc", {"--call-timeout", "0.5"});  // 7 cases
  EXPECT_EQ(r.exit_code, 1) << r.output;
  ASSERT_EQ(r.report["cases"].size(), 7u);
  int not_run = 0;
  for (const auto& c : r.report["cases"]) {
    EXPECT_EQ(c["verdict"], "TLE") << c["name"];
    not_run += c["detail"].get<std::string>().find("not run: the 3 cases before it") != std::string::npos;
  }
  EXPECT_EQ(not_run, 4);
}

TEST(HostE2E, CrashWhileLoadingFailsEveryCaseWithoutRetrying) {
  JudgeRun r = RunHost("adversarial/abort_in_constructor.cc");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  int crashed = 0;
  for (const auto& c : r.report["cases"]) {
    if (c["verdict"] == "NR") continue;  // after three crashes in a row
    ++crashed;
    EXPECT_EQ(c["verdict"], "RE");
    EXPECT_NE(c["detail"].get<std::string>().find("while loading the library"), std::string::npos);
    EXPECT_NE(c["detail"].get<std::string>().find("SIGABRT"), std::string::npos) << c["detail"];
  }
  EXPECT_EQ(crashed, 3);
}

TEST(HostE2E, MangledSolveIsACompileErrorThatSaysHowToFixIt) {
  JudgeRun r = RunHost("adversarial/mangled_symbol.cc");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.report["verdict"], "CE");
  std::string log = r.report["build"]["log"];
  EXPECT_NE(log.find("solve(float const*, float*, int)"), std::string::npos) << log;
  EXPECT_NE(log.find("extern \"C\" void solve(const float* input, float* output, int N)"), std::string::npos) << log;
}

TEST(HostE2E, SyntaxErrorIsACompileErrorWithFileAndLine) {
  JudgeRun r = RunHost("adversarial/compile_error.cc");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.report["verdict"], "CE");
  for (const auto& c : r.report["cases"]) EXPECT_EQ(c["verdict"], "CE");
  const std::string log = r.report["build"]["log"];
  EXPECT_NE(log.find(SourcePath("tests/adversarial/compile_error.cc") + ":3"), std::string::npos) << log;
  EXPECT_NE(log.find("    3 |   for (int i = 0; i < N; ++i) s += input[i];"), std::string::npos)
      << log;  // its own line, quoted
  EXPECT_EQ(log.find("gpu-judge-compile-"), std::string::npos) << "the sandbox's copy must not show:\n" << log;
  EXPECT_NE(r.output.find("compile_error.cc:3"), std::string::npos);  // and the person sees it
}

TEST(HostE2E, OutputIsCapturedAndDoesNotCorruptTheProtocol) {
  JudgeRun r = RunHost("host_submissions/chatty.cc", {"--cases", "example"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE((*r.Case("example"))["stdout"].get<std::string>().find("solve called with N=8"), std::string::npos);
  EXPECT_NE((*r.Case("example"))["stderr"].get<std::string>().find("debug: first=1"), std::string::npos);
}

TEST(HostE2E, SecondRunHitsTheCompileCache) {
  std::string cache = std::string(JUDGE_TEST_CACHE_DIR) + "-fresh-" + std::to_string(::getpid());
  JudgeRun first = RunHost("host_submissions/good_sum.cc", {"--cases", "example", "--cache-dir", cache});
  JudgeRun second = RunHost("host_submissions/good_sum.cc", {"--cases", "example", "--cache-dir", cache});
  EXPECT_EQ(first.report["verdict"], "AC") << first.output;
  EXPECT_EQ(second.report["verdict"], "AC") << second.output;
  EXPECT_FALSE(first.report["build"]["cache_hit"].get<bool>());
  EXPECT_TRUE(second.report["build"]["cache_hit"].get<bool>());
  EXPECT_EQ(first.report["build"]["cache_key"], second.report["build"]["cache_key"]);
  // Compiled in the sandbox; a hit reports the layers of the compile that made the library.
  EXPECT_EQ(LayerNames(first.report["build"]["sandbox"]),
            (std::vector<std::string>{"rlimits", "network_namespace", "unprivileged", "no_new_privs", "landlock"}));
  EXPECT_EQ(second.report["build"]["sandbox"], first.report["build"]["sandbox"]);
  std::filesystem::remove_all(cache);
}

// Found on the build machine: every --no-cache build left its compile folder (and the library in
// it) in the temp folder. The library now lives in a folder of the judge's own, gone at its exit.
TEST(HostE2E, NoCacheLeavesNothingInTheTempFolder) {
  TempFolder tmp("judge-no-cache-");
  for (int run = 0; run < 2; ++run) {
    JudgeRun r = RunHostAt(SourcePath("tests/host_submissions/good_sum.cc"), {"--cases", "example", "--no-cache"},
                           {"env", "TMPDIR=" + tmp.path()});
    EXPECT_EQ(r.report["verdict"], "AC") << r.output;
    EXPECT_FALSE(r.report["build"]["cache_hit"].get<bool>()) << "run " << run;
  }
  std::string left;
  for (const auto& e : std::filesystem::directory_iterator(tmp.path())) left += e.path().filename().string() + " ";
  EXPECT_EQ(left, "");
}

TEST(HostE2E, TheBuildSectionNamesTheCompileSandboxLayers) {
  std::string cache = std::string(JUDGE_TEST_CACHE_DIR) + "-layers-" + std::to_string(::getpid());
  JudgeRun r = RunHost("host_submissions/good_sum.cc", {"--cases", "example", "--cache-dir", cache});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Json& layers = r.report["build"]["sandbox"];
  EXPECT_NE(r.output.find(TextLine("build sandbox:", layers)), std::string::npos) << r.output;
  for (const auto& p : layers) {
    EXPECT_FALSE(p["detail"].get<std::string>().empty()) << p.dump();
    // Each layer takes effect wherever the worker's namesake does (same kernel, same user).
    const Json* worker = FindLayer(r.report["protections"], p["name"]);
    ASSERT_NE(worker, nullptr) << p.dump();
    EXPECT_EQ(p["active"], (*worker)["active"]) << "compiler: " << p.dump() << "\nworker: " << worker->dump();
    if (!p["active"].get<bool>())  // an inactive layer is a warning too
      EXPECT_NE(r.report["warnings"].dump().find("compile sandbox layer inactive: " + p["name"].get<std::string>()),
                std::string::npos)
          << r.report["warnings"].dump();
  }
  JudgeRun off = RunHost("host_submissions/good_sum.cc", {"--cases", "example", "--cache-dir", cache, "--no-sandbox"});
  ASSERT_EQ(off.exit_code, 0) << off.output;
  EXPECT_FALSE(off.report["build"]["cache_hit"].get<bool>()) << "an unconfined build must not reuse the confined one";
  EXPECT_EQ(off.report["build"]["sandbox"].dump(),
            Json::array({{{"active", false}, {"detail", "disabled with --no-sandbox"}, {"name", "sandbox"}}}).dump());
  EXPECT_NE(off.output.find("build sandbox: sandbox (OFF)\n"), std::string::npos) << off.output;
  std::filesystem::remove_all(cache);
}

TEST(HostE2E, IncludingEtcPasswdIsACompileErrorThatShowsNoLineOfIt) {
  TempFolder dir("judge-e2e-passwd-");
  std::string src = dir.Write("passwd.cc",
                              "#include \"/etc/passwd\"\n"
                              "extern \"C\" void solve(const float* in, float* out, int n) { out[0] = in[0]; }\n");
  JudgeRun r = RunHostAt(src, {"--cases", "example"});
  ASSERT_TRUE(r.report.is_object()) << r.output;
  EXPECT_EQ(r.report["verdict"], "CE");
  EXPECT_NE(r.report["build"]["log"].get<std::string>().find("/etc/passwd"), std::string::npos)
      << r.report["build"]["log"];
  const std::string json = r.report.dump();
  std::ifstream passwd("/etc/passwd");
  int lines = 0;
  for (std::string line; std::getline(passwd, line);) {
    if (line.empty()) continue;
    ++lines;
    EXPECT_EQ(r.output.find(line), std::string::npos) << "the text report shows a line of /etc/passwd:\n" << r.output;
    EXPECT_EQ(json.find(line), std::string::npos) << "the JSON report shows a line of /etc/passwd:\n" << json;
  }
  EXPECT_GT(lines, 0);
  EXPECT_EQ(r.output.find("root:x:0:0"), std::string::npos);
  EXPECT_EQ(json.find("root:x:0:0"), std::string::npos);
}

// A file the judge's user can read, outside the submission's folder: another student's source, a
// token. Its first line is one no compiler message quotes, so even without Landlock only the
// quoted source line could show the marker, and the log filter drops that.
struct Secret {
  Secret() : marker("E2E_SECRET_" + std::to_string(::getpid())) {
    header = folder.Write("secret.h", "int " + marker + " = ;\n");
  }
  TempFolder folder{"judge-e2e-secret-"};
  TempFolder submissions{"judge-e2e-submission-"};
  std::string marker, header;
};

TEST(HostE2E, AHeaderOutsideTheSubmissionsFolderReachesNoReport) {
  Secret secret;
  std::string src =
      secret.submissions.Write("leak.cc", "#include \"" + secret.header +
                                              "\"\n"
                                              "extern \"C\" void solve(const float* in, float* out, int n) {}\n");
  JudgeRun r = RunHostAt(src, {"--cases", "example"});
  ASSERT_TRUE(r.report.is_object()) << r.output;
  EXPECT_EQ(r.report["verdict"], "CE");
  const std::string log = r.report["build"]["log"];
  EXPECT_NE(log.find(secret.header), std::string::npos) << log;  // where the compile failed
  const Json* landlock = FindLayer(r.report["build"]["sandbox"], "landlock");
  ASSERT_NE(landlock, nullptr);
  if ((*landlock)["active"].get<bool>()) EXPECT_NE(log.find("Permission denied"), std::string::npos) << log;
  EXPECT_EQ(r.output.find(secret.marker), std::string::npos) << r.output;
  EXPECT_EQ(r.report.dump().find(secret.marker), std::string::npos) << r.report.dump();
}

TEST(HostE2E, NvccToo_AHeaderOutsideTheSubmissionsFolderReachesNoBuildOutput) {
  if (FindOnPath("nvcc").empty() && ::access("/usr/local/cuda/bin/nvcc", X_OK) != 0) GTEST_SKIP() << "no nvcc here";
  Secret secret;
  std::string src = secret.submissions.Write("leak.cu", "#include \"" + secret.header +
                                                            "\"\n"
                                                            "__global__ void k(float* x) { x[0] = 1; }\n");
  // `judge build` needs no GPU.
  JudgeRun r =
      RunJudge({"build", src, "--arch", "sm_90", "--root", JUDGE_SOURCE_DIR, "--cache-dir", JUDGE_TEST_CACHE_DIR});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("compile error: " + src), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(secret.header), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("compile sandbox: rlimits"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(secret.marker), std::string::npos) << r.output;
}

TEST(HostE2E, RunByAnUnprivilegedUserBothSandboxesStillHaveAPrivateNetwork) {
  std::vector<std::string> launcher;
  if (::geteuid() == 0) {
    std::string setpriv = FindOnPath("setpriv");
    if (setpriv.empty()) GTEST_SKIP() << "running as root without setpriv (util-linux) to become nobody";
    launcher = {setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"};
  }
  TempFolder cache("judge-e2e-unprivileged-", 01777);  // the unprivileged judge's compile cache
  JudgeRun r = RunHostAt(SourcePath("tests/host_submissions/good_sum.cc"),
                         {"--cases", "example", "--cache-dir", cache.path()}, launcher);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.report["verdict"], "AC");
  for (const Json* layers : {&r.report["protections"], &r.report["build"]["sandbox"]}) {
    const Json* net = FindLayer(*layers, "network_namespace");
    const Json* user = FindLayer(*layers, "unprivileged");
    ASSERT_TRUE(net && user) << layers->dump();
    std::string detail = (*net)["detail"];
    if (detail.find("refused too") != std::string::npos)
      GTEST_SKIP() << "user namespaces are disabled here: " << detail;
    EXPECT_TRUE((*net)["active"].get<bool>()) << detail;
    EXPECT_NE(detail.find("inside an unprivileged user namespace (uid " +
                          std::to_string(launcher.empty() ? ::geteuid() : 65534)),
              std::string::npos)
        << detail;
    EXPECT_NE((*user)["detail"].get<std::string>().find("(not root)"), std::string::npos) << user->dump();
  }
  EXPECT_NE(FindLayer(r.report["build"]["sandbox"], "rlimits")->dump().find("processes in its user namespace"),
            std::string::npos)
      << r.report["build"]["sandbox"].dump();
}

TEST(HostE2E, TextAndJsonOnStdout) {
  JudgeRun r = RunJudge({"run", SourcePath("tests/host_submissions/good_sum.cc"), "--device", "host", "--testcases",
                         SourcePath("tests/e2e/testcases/reduction"), "--cases", "example", "--format", "text"});
  EXPECT_NE(r.output.find("result: AC (accepted), 1/1 cases accepted"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("[  1/1] example"), std::string::npos);  // progress on stderr
  JudgeRun j = RunJudge({"run", SourcePath("tests/host_submissions/good_sum.cc"), "--device", "host", "--testcases",
                         SourcePath("tests/e2e/testcases/reduction"), "--cases", "example", "--format", "json", "-q"});
  Json parsed = Json::parse(j.output, nullptr, false);
  ASSERT_FALSE(parsed.is_discarded()) << j.output;
  EXPECT_EQ(parsed["schema"], "gpu-judge.report");
}

// -v's log is the judge's, like its progress: stdout stays the report alone, so `--format json -v`
// still parses (the log once went to spdlog's default, stdout).
TEST(HostE2E, VerboseLogGoesToStderrNotIntoTheReport) {
  const std::vector<std::string> args = {"run",         SourcePath("tests/host_submissions/good_sum.cc"),
                                         "--device",    "host",
                                         "--testcases", SourcePath("tests/e2e/testcases/reduction"),
                                         "--cases",     "example",
                                         "--format",    "json",
                                         "-q",          "-v"};
  JudgeRun both = RunJudge(args);
  EXPECT_NE(both.output.find("[debug] case example AC"), std::string::npos) << both.output;
  JudgeRun stdout_only = RunJudge(args, 600, {"sh", "-c", "exec \"$0\" \"$@\" 2>/dev/null"});
  EXPECT_EQ(stdout_only.output.find("[debug]"), std::string::npos) << stdout_only.output;
  Json parsed = Json::parse(stdout_only.output, nullptr, false);
  ASSERT_FALSE(parsed.is_discarded()) << stdout_only.output;
  EXPECT_EQ(parsed["verdict"], "AC");
}

TEST(HostE2E, BadInputsGetClearErrorsAndExitCode2) {
  JudgeRun missing = RunJudge({"run", "no/such/file.cu", "--device", "host"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("submission not found: no/such/file.cu"), std::string::npos) << missing.output;

  JudgeRun problem =
      RunJudge({"run", SourcePath("tests/host_submissions/good_sum.cc"), "--device", "host", "--problem", "nope"});
  EXPECT_EQ(problem.exit_code, 2);
  EXPECT_NE(problem.output.find("unknown problem \"nope\""), std::string::npos) << problem.output;

  JudgeRun option = RunJudge({"run", SourcePath("tests/host_submissions/good_sum.cc"), "--frobnicate"});
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.output.find("frobnicate"), std::string::npos) << option.output;

  JudgeRun format = RunJudge({"run", SourcePath("tests/host_submissions/good_sum.cc"), "--format", "yaml"});
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_NE(format.output.find("unknown --format \"yaml\""), std::string::npos);

  JudgeRun cases = RunJudge({"run", SourcePath("tests/host_submissions/good_sum.cc"), "--device", "host", "--testcases",
                             SourcePath("tests/host_submissions")});
  EXPECT_EQ(cases.exit_code, 2);
  EXPECT_NE(cases.output.find("no testcases in"), std::string::npos) << cases.output;
}

// The command table: every command reads its arguments the same way.
TEST(Cli, AnUnknownCommandPrintsTheUsageAndExits2) {
  JudgeRun r = RunJudge({"frobnicate", "x.cu"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("unknown command \"frobnicate\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("usage: judge <command>"), std::string::npos) << r.output;
  EXPECT_EQ(RunJudge({}).exit_code, 2);
}

TEST(Cli, ABadDeviceIsAUsageErrorForEveryCommand) {
  for (const char* command : {"run", "batch", "build", "ladder"}) {
    JudgeRun r = RunJudge({command, SourcePath("tests/host_submissions/good_sum.cc"), "--device", "bogus"});
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.output;
    EXPECT_NE(r.output.find("--device must be cuda or host"), std::string::npos) << command << ": " << r.output;
    EXPECT_NE(r.output.find("\"bogus\""), std::string::npos) << command << ": " << r.output;
  }
}

TEST(Cli, AnArgumentACommandDoesNotTakeIsNamed) {
  JudgeRun run = RunJudge({"run", SourcePath("tests/host_submissions/good_sum.cc"), "second.cu", "--device", "host"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("unexpected argument \"second.cu\""), std::string::npos) << run.output;
  EXPECT_FALSE(run.report.is_object()) << "nothing should have been judged";

  JudgeRun compare = RunJudge({"compare", "a.cc", "b.cc", "c.cc", "--device", "host"});
  EXPECT_EQ(compare.exit_code, 2);
  EXPECT_NE(compare.output.find("unexpected argument \"c.cc\""), std::string::npos) << compare.output;
  JudgeRun version = RunJudge({"version", "now"});
  EXPECT_EQ(version.exit_code, 2);
  EXPECT_NE(version.output.find("unexpected argument \"now\""), std::string::npos) << version.output;
  JudgeRun missing = RunJudge({"run"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("judge run needs a submission file"), std::string::npos) << missing.output;
}

TEST(Cli, HelpListsTheCommandsAndEachCommandsOptions) {
  for (const char* help : {"--help", "-h", "help"}) {
    JudgeRun r = RunJudge({help});
    EXPECT_EQ(r.exit_code, 0) << help;
    for (const char* line : {"  run FILE ", "  compare A B ", "  batch IN... ", "  merge DIR... ", "  version "})
      EXPECT_NE(r.output.find(line), std::string::npos) << help << " lacks \"" << line << "\":\n" << r.output;
    EXPECT_EQ(r.output.find("__worker"), std::string::npos) << "the worker is the judge's own, not the user's";
  }
  JudgeRun run = RunJudge({"run", "--help"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  for (const char* option :
       {"judge run [OPTION...] FILE", "--device", "--root", "--format", "--timing-processes", "--points"})
    EXPECT_NE(run.output.find(option), std::string::npos) << option << ":\n" << run.output;
  JudgeRun version = RunJudge({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.output, std::string("judge ") + kJudgeVersion + "\n");
}

TEST(HostE2E, BrokenTestcaseFileNamesFileAndField) {
  std::string dir = std::filesystem::temp_directory_path().string() + "/judge-bad-cases-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  {
    std::ofstream f(dir + "/x.json");
    f << R"({"problem": "reduction", "cases": [{"name": "a", "scalars": {"N": 2}, "inputs": {"input": {"values": [1]}}}]})";
  }
  JudgeRun r =
      RunJudge({"run", SourcePath("tests/host_submissions/good_sum.cc"), "--device", "host", "--testcases", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("x.json: cases[0].inputs.input.values: has 1 elements"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

// A problem author's bug: the reference crashes on large cases. The judge must say so (IE naming
// the reference), keep judging the cases the reference can do, and never die with it.
TEST(HostE2E, ACrashingReferenceIsAnInternalErrorThatNamesIt) {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("judge-crashy-" + std::to_string(::getpid()));
  fs::create_directories(root / "problems" / "crashy");
  fs::create_directories(root / "testcases" / "crashy");
  fs::copy_file(SourcePath("problems/reference_abi.h"), root / "problems" / "reference_abi.h");
  auto rewrite = [](const std::string& from, const fs::path& to) {
    std::ifstream in(from);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    for (size_t at; (at = text.find("\"reduction\"")) != std::string::npos;) text.replace(at, 11, "\"crashy\"");
    std::ofstream(to) << text;
  };
  rewrite(SourcePath("problems/reduction/problem.json"), root / "problems" / "crashy" / "problem.json");
  rewrite(SourcePath("tests/e2e/testcases/reduction/cases.json"), root / "testcases" / "crashy" / "cases.json");
  std::ofstream(root / "problems" / "crashy" / "reference.cc") << R"(#include <csignal>
#include "../reference_abi.h"
extern "C" int judge_reference(const JudgeReferenceArgs* args) {
  if (args->input_counts[0] > 100) std::raise(SIGSEGV);
  double s = 0;
  for (int64_t i = 0; i < args->input_counts[0]; ++i) s += static_cast<const float*>(args->inputs[0])[i];
  args->outputs[0][0] = static_cast<float>(s);
  return 0;
})";
  JudgeRun r = RunJudge({"run", SourcePath("tests/host_submissions/good_sum.cc"), "--device", "host", "--root",
                         root.string(), "--problem", "crashy", "--quiet"});
  EXPECT_EQ(r.exit_code, 4) << r.output;
  EXPECT_EQ(r.report["verdict"], "IE");
  EXPECT_EQ(Verdict(r, "example"), "AC");  // N = 8: the reference copes, the judge carried on
  EXPECT_EQ(Verdict(r, "small_int"), "IE");
  EXPECT_NE(Detail(r, "small_int").find("problems/crashy/reference.cc crashed (killed by SIGSEGV"), std::string::npos)
      << Detail(r, "small_int");
  EXPECT_NE(Detail(r, "small_int").find("not in the submission"), std::string::npos);
  fs::remove_all(root);
}

TEST(HostE2E, WithoutAGpuTheCudaDeviceStopsAtOnceWithExitCode3) {
  JudgeRun probe = RunJudge({"run", SourcePath("submissions/06_warp_unroll.cu"), "--cases", "example", "-q"});
  if (probe.exit_code != 3)
    GTEST_SKIP() << "a GPU is present here (exit " << probe.exit_code << "): covered by the gpu tests";
  EXPECT_NE(probe.output.find("no usable CUDA GPU"), std::string::npos) << probe.output;
  EXPECT_NE(probe.output.find("--device host"), std::string::npos);
}

TEST(HostE2E, InterruptedRunStillWritesACompleteReport) {
  std::string out =
      std::filesystem::temp_directory_path().string() + "/judge-interrupt-" + std::to_string(::getpid()) + ".json";
  pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, STDOUT_FILENO);
    dup2(devnull, STDERR_FILENO);
    execl(JUDGE_BINARY, JUDGE_BINARY, "run", SourcePath("tests/adversarial/host_hang.cc").c_str(), "--device", "host",
          "--testcases", SourcePath("tests/e2e/testcases/reduction").c_str(), "--root", JUDGE_SOURCE_DIR,
          "--call-timeout", "60", "--out", out.c_str(), "--cache-dir", JUDGE_TEST_CACHE_DIR, nullptr);
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // well inside the first, hanging call
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  Json report = Json::parse(ReadFile(out).value_or(std::string("null")), nullptr, false);
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["cases"].size(), 7u);
  for (const auto& c : report["cases"]) EXPECT_EQ(c["verdict"], "NR") << c.dump();
  EXPECT_NE(report["message"].get<std::string>().find("interrupted"), std::string::npos);
  std::filesystem::remove(out);
}

TEST(HostE2E, LadderGradesEverySubmissionInOrderAndWritesMarkdown) {
  std::string md =
      std::filesystem::temp_directory_path().string() + "/judge-ladder-" + std::to_string(::getpid()) + ".md";
  JudgeRun r = RunJudge({"ladder", SourcePath("tests/host_submissions"), "--device", "host", "--root", JUDGE_SOURCE_DIR,
                         "--testcases", SourcePath("tests/e2e/testcases/reduction"), "--cache-dir",
                         JUDGE_TEST_CACHE_DIR, "--markdown", md});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  size_t chatty = r.output.find("\nchatty "), crash = r.output.find("\ncrash_on_large "),
         good = r.output.find("\ngood_sum ");
  ASSERT_NE(chatty, std::string::npos) << r.output;
  EXPECT_LT(chatty, crash);  // name order
  EXPECT_LT(crash, good);
  EXPECT_NE(r.output.find("median N=100,000"), std::string::npos);
  EXPECT_NE(r.output.substr(crash, 40).find("RE"), std::string::npos);  // a crashing rung keeps its verdict
  std::string text = ReadFile(md).value_or(std::string());
  EXPECT_NE(text.find("| version | verdict | median N=100,000 |"), std::string::npos) << text;
  EXPECT_NE(text.find("| good_sum | AC |"), std::string::npos) << text;
  std::filesystem::remove(md);
}

JudgeRun RunCompare(const std::string& a, const std::string& b, const std::string& rounds) {
  return RunJudge({"compare", SourcePath("tests/" + a), SourcePath("tests/" + b), "--device", "host", "--root",
                   JUDGE_SOURCE_DIR, "--testcases", SourcePath("tests/e2e/testcases/reduction"), "--cache-dir",
                   JUDGE_TEST_CACHE_DIR, "--rounds", rounds});
}

TEST(HostE2E, CompareFindsTheClearlyFasterSubmission) {
  JudgeRun r = RunCompare("host_submissions/good_sum.cc", "host_submissions/slow_sum.cc", "3");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("case perf_small, 3 alternating rounds"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("good_sum is"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("faster than slow_sum"), std::string::npos) << r.output;
}

TEST(HostE2E, CompareRefusesAWrongSubmission) {
  JudgeRun r = RunCompare("host_submissions/good_sum.cc", "adversarial/nan_output.cc", "2");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("nan_output.cc is not accepted on perf_small"), std::string::npos) << r.output;
}

TEST(HostE2E, WritesJunitAndGradescopeFilesFromTheSameRun) {
  std::string base = std::filesystem::temp_directory_path().string() + "/judge-formats-" + std::to_string(::getpid());
  JudgeRun r =
      RunHost("host_submissions/crash_on_large.cc", {"--junit", base + ".xml", "--gradescope", base + ".json"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  std::string cmd = "xmllint --noout --schema " + SourcePath("tests/schemas/junit.xsd") + " " + base + ".xml";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::string xml = ReadFile(base + ".xml").value_or(std::string());
  EXPECT_NE(xml.find("<error message=\"RE: runtime error\" type=\"RE\">killed by SIGSEGV"), std::string::npos) << xml;
  Json g = Json::parse(ReadFile(base + ".json").value_or(std::string("null")), nullptr, false);
  ASSERT_TRUE(g.is_object());
  // problems/reduction/grading.json: 80 points split over the cases, 20 for speed (none here: a crash).
  double accepted = r.report["summary"]["by_verdict"].value("AC", 0);
  EXPECT_DOUBLE_EQ(g["max_score"].get<double>(), 100);
  EXPECT_NEAR(g["score"].get<double>(), 80 * accepted / double(r.report["cases"].size()), 1e-3);
  std::filesystem::remove(base + ".xml");
  std::filesystem::remove(base + ".json");
}

}  // namespace
}  // namespace judge::testing

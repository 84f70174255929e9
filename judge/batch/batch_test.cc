// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "judge/batch/batch.h"
#include "judge/grade/grading_policy.h"
#include "judge/report/markup.h"
#include "judge/report/reporter.h"

namespace judge {
namespace {

BatchEntry Entry(const std::string& name, Verdict v, double median_ms, double noise, double gbps = 100) {
  BatchEntry e;
  e.name = name;
  e.report.verdict = v;
  CaseResult perf;
  perf.name = "perf_4m";
  perf.kind = CaseKind::kPerformance;
  perf.verdict = v;
  perf.event = Summarize({median_ms});
  perf.event.noise = noise;
  perf.audit.honest_median_ms = median_ms;
  perf.gbps = gbps;
  e.report.cases.push_back(perf);
  return e;
}

TEST(Leaderboard, RanksAcceptedByMedianAndTiesOverlappingIntervals) {
  std::vector<BatchEntry> entries = {
      Entry("c", Verdict::kAccepted, 0.0100, 0.001),    // 10.00 us +- 0.02
      Entry("a", Verdict::kAccepted, 0.0101, 0.001),    // 10.10 us: overlaps c? no (10.02 < 10.08)
      Entry("b", Verdict::kAccepted, 0.01005, 0.005),   // 10.05 us +- 0.10: overlaps both
      Entry("d", Verdict::kWrongAnswer, 0.001, 0.001),  // fastest, but wrong: not ranked
      Entry("e", Verdict::kAccepted, 0.0200, 0.001),
  };
  entries[4].report.cases[0].flags.push_back("work escaped the event window");  // flagged: not ranked
  auto rows = Leaderboard(entries);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].entry->name, "c");
  EXPECT_EQ(rows[1].entry->name, "b");
  EXPECT_EQ(rows[2].entry->name, "a");
  EXPECT_EQ(rows[0].rank, 1);
  EXPECT_EQ(rows[1].rank, 1);  // b's interval reaches c's
  EXPECT_EQ(rows[2].rank, 1);  // and a's reaches b's
  EXPECT_TRUE(rows[0].tied && rows[1].tied && rows[2].tied);

  std::vector<BatchEntry> apart = {Entry("x", Verdict::kAccepted, 0.010, 0.001),
                                   Entry("y", Verdict::kAccepted, 0.020, 0.001)};
  auto ranked = Leaderboard(apart);
  EXPECT_EQ(ranked[1].rank, 2);
  EXPECT_FALSE(ranked[0].tied || ranked[1].tied);
}

// Keyed entries for the plan's tests: name, key, when graded.
BatchEntry Graded(const std::string& name, const std::string& key, const std::string& started_at,
                  Verdict v = Verdict::kAccepted) {
  BatchEntry e = Entry(name, v, 0.01, 0.001);
  e.key = key;
  e.report.started_at = started_at;
  return e;
}

std::vector<PlannedSubmission> Plan(std::vector<std::pair<std::string, std::string>> names_and_keys, int shards) {
  std::vector<PlannedSubmission> plan;
  for (size_t i = 0; i < names_and_keys.size(); ++i)
    plan.push_back({names_and_keys[i].first, names_and_keys[i].second, int(i % size_t(shards)), shards});
  return plan;
}

TEST(Plan, ListsEveryPlannedSubmissionWithoutAResultOfItsKeyAsNotGraded) {
  auto plan = Plan({{"alice.cu", "k1"}, {"bob.cu", "k2"}, {"carol.cu", "k3"}, {"dave.cu", "k4"}}, 2);
  // bob's shard was cancelled; carol was graded only in an earlier version (another key); a result
  // of a file no longer in the inputs is left out; alice was graded twice: the newest counts.
  std::vector<BatchEntry> found = {
      Graded("alice.cu", "k1", "2026-01-01T10:00:00Z", Verdict::kWrongAnswer),
      Graded("alice.cu", "k1", "2026-01-01T11:00:00Z"), Graded("carol.cu", "k0", "2026-01-01T10:00:00Z"),
      Graded("dave.cu", "k4", "2026-01-01T10:00:00Z"), Graded("eve.cu", "k9", "2026-01-01T10:00:00Z")};
  Reconciled r = ReconcileWithPlan(plan, found);
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].name, "alice.cu");
  EXPECT_EQ(r.entries[0].report.verdict, Verdict::kAccepted);
  EXPECT_EQ(r.entries[1].name, "dave.cu");
  ASSERT_EQ(r.not_graded.size(), 2u);
  EXPECT_EQ(r.not_graded[0].name, "bob.cu");
  EXPECT_EQ(r.not_graded[0].shard, 1);
  EXPECT_EQ(r.not_graded[1].name, "carol.cu");
  EXPECT_EQ(r.outside_plan, 2u);  // carol's old version and eve
  EXPECT_EQ(MergeExitCode(r, false), kExitNotGraded);
  EXPECT_NE(NotGradedReason(r.not_graded[0]).find("shard 1/2"), std::string::npos);

  // Nothing graded at all (every shard failed before its first result): everyone is listed.
  EXPECT_EQ(ReconcileWithPlan(plan, {}).not_graded.size(), 4u);
}

TEST(Plan, WithoutOneEveryResultCountsAndNothingCanBeMissing) {
  std::vector<BatchEntry> found = {Graded("a.cu", "k1", "2026-01-01T10:00:00Z", Verdict::kWrongAnswer),
                                   Graded("a.cu", "k2", "2026-01-01T11:00:00Z"),
                                   Graded("b.cu", "k3", "2026-01-01T10:00:00Z", Verdict::kInternalError)};
  Reconciled r = ReconcileWithPlan(std::nullopt, found);
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].key, "k2");  // the newest result of a name
  EXPECT_TRUE(r.not_graded.empty());
  EXPECT_EQ(MergeExitCode(r, false), int(ExitCode::kInternalError));
}

TEST(Plan, ANarrowerRunWouldDropTheNamesItDoesNotPlan) {
  const std::vector<PlannedSubmission> all = {{"a.cu", "k1"}, {"b.cu", "k2"}, {"c.cu", "k3"}};
  EXPECT_EQ(DroppedFromPlan(all, {{"b.cu", "k2"}}), (std::vector<std::string>{"a.cu", "c.cu"}));
  EXPECT_TRUE(DroppedFromPlan(all, {{"c.cu", "new"}, {"a.cu", "k1"}, {"b.cu", "k9"}, {"d.cu", "k4"}}).empty())
      << "a changed file or a new one drops nobody";
  EXPECT_TRUE(DroppedFromPlan({}, all).empty());
}

TEST(Plan, RoundTripsThroughJsonAndRejectsWhatIsNotOne) {
  auto plan = Plan({{"x/kernel.cu", "k1"}, {"y/kernel.cu", "k2"}, {"z.cu", "k3"}}, 2);
  auto back = PlanFromJson(PlanToJson(plan), "plan.json");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->size(), 3u);
  EXPECT_EQ((*back)[2].name, "z.cu");
  EXPECT_EQ((*back)[2].shard, 0);
  EXPECT_EQ((*back)[1].shard, 1);
  EXPECT_EQ((*back)[1].shard_count, 2);
  Json bad = PlanToJson(plan);
  bad["submissions"][0]["shard"] = 2;  // past shard_count
  EXPECT_FALSE(PlanFromJson(bad, "plan.json"));
  EXPECT_FALSE(PlanFromJson(Json{{"schema", "gpu-judge.batch"}}, "plan.json"));
}

TEST(Cpus, TheDefaultCompileJobsFollowTheAffinityMask) {
  cpu_set_t saved;
  ASSERT_EQ(::sched_getaffinity(0, sizeof saved, &saved), 0);
  int first = 0;
  while (!CPU_ISSET(first, &saved)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(::sched_setaffinity(0, sizeof one, &one), 0);  // as a scheduler's allotment of one CPU
  EXPECT_EQ(AvailableCpus(), 1);
  ASSERT_EQ(::sched_setaffinity(0, sizeof saved, &saved), 0);
  EXPECT_EQ(AvailableCpus(), CPU_COUNT(&saved));
}

TEST(Shards, PartitionTheSortedListAndParse) {
  std::vector<std::string> files = {"a", "b", "c", "d", "e"};
  auto s0 = ShardOf(files, 0, 2), s1 = ShardOf(files, 1, 2);
  EXPECT_EQ(s0, (std::vector<std::string>{"a", "c", "e"}));
  EXPECT_EQ(s1, (std::vector<std::string>{"b", "d"}));
  EXPECT_EQ(ShardOf(files, 0, 1), files);
  int i = 0, n = 0;
  EXPECT_TRUE(ParseShard("3/4", &i, &n).ok());
  EXPECT_EQ(i, 3);
  EXPECT_EQ(n, 4);
  for (const char* bad :
       {"4/4", "-1/2", "1", "a/b", "1/0", "1/2x", " 1/2", "+1/2", "0/99999999999", "0/100001", "0/4294967297"})
    EXPECT_FALSE(ParseShard(bad, &i, &n).ok()) << bad;  // 0/99999999999: found by fuzzing, was accepted
  EXPECT_NE(ParseShard("0/99999999999", &i, &n).error().message.find("0 <= I < N <= 100000"), std::string::npos);
}

TEST(EntryNames, AreRelativeToTheInputAndGrowOnlyToTellFilesApart) {
  struct Case {
    const char* what;
    std::vector<FoundFile> files;
    std::vector<std::string> names;
  };
  const Case cases[] = {
      {"an absolute folder: relative to it",
       {{"/srv/course/students/alice/kernel.cu", "/srv/course/students"},
        {"/srv/course/students/bob/kernel.cu", "/srv/course/students/"}},
       {"alice/kernel.cu", "bob/kernel.cu"}},
      {"a relative folder, and the current one",
       {{"students/alice/kernel.cu", "students"}, {"top.cu", "."}, {"../other/x/k.cu", "../other"}},
       {"alice/kernel.cu", "top.cu", "x/k.cu"}},
      {"files named directly: relative as given, absolute by file name",
       {{"students/alice/kernel.cu", ""}, {"/home/me/solution.cu", ""}},
       {"students/alice/kernel.cu", "solution.cu"}},
      {"an absolute glob: file names that clash take their folder",
       {{"/srv/students/alice/kernel.cu", ""},
        {"/srv/students/bob/kernel.cu", ""},
        {"/srv/students/carol/main.cu", ""}},
       {"alice/kernel.cu", "bob/kernel.cu", "main.cu"}},
      {"two courses' folders: as many parent folders as tell them apart",
       {{"/srv/2024/students/alice/kernel.cu", "/srv/2024/students"},
        {"/srv/2025/students/alice/kernel.cu", "/srv/2025/students"},
        {"/srv/2025/students/bob/kernel.cu", "/srv/2025/students"}},
       {"2024/students/alice/kernel.cu", "2025/students/alice/kernel.cu", "bob/kernel.cu"}},
      {"a lengthened name that meets another lengthens that one too",
       {{"x/k.cu", "x"}, {"/a/x/k.cu", ""}, {"/b/y/k.cu", ""}},
       {"x/k.cu", "a/x/k.cu", "y/k.cu"}},
      {"a path that is another's tail: the absolute one grows to its root",
       {{"/x/k.cu", ""}, {"/y/x/k.cu", ""}, {"x/k.cu", ""}},
       {"/x/k.cu", "y/x/k.cu", "x/k.cu"}},
  };
  for (const auto& c : cases) EXPECT_EQ(EntryNames(c.files), c.names) << c.what;
}

TEST(ExpandInputs, RemembersTheFolderAFileWasFoundUnderAndFindsItOnce) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("judge-expand-" + std::to_string(::getpid()));
  fs::create_directories(dir / "students" / "alice");
  std::ofstream(dir / "students" / "alice" / "kernel.cu") << "\n";
  std::ofstream(dir / "students" / "notes.txt") << "\n";
  std::ofstream(dir / "extra.cu") << "\n";
  std::string students = (dir / "students").string(), alice = (dir / "students" / "alice" / "kernel.cu").string();
  auto found = ExpandInputs({students, alice, (dir / "*.cu").string()}, DeviceKind::kCuda);
  fs::remove_all(dir);
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_EQ(found->size(), 2u);  // notes.txt is no submission; alice's kernel is found once, under students/
  EXPECT_EQ((*found)[0].path, (dir / "extra.cu").string());
  EXPECT_EQ((*found)[0].folder, "");
  EXPECT_EQ((*found)[1].path, alice);
  EXPECT_EQ((*found)[1].folder, students);
  EXPECT_EQ(EntryNames(*found), (std::vector<std::string>{"extra.cu", "alice/kernel.cu"}));
}

TEST(ReportJson, RoundTripsEverythingTheReportersUse) {
  RunReport r;
  r.started_at = "2026-11-30T07:00:00Z";
  r.submission_path = "submissions/10_vectorized.cu";
  r.problem = "reduction";
  r.verdict = Verdict::kWrongAnswer;
  r.exit_code = ExitCode::kRejected;
  r.ceiling_gbps = 4473;
  r.ceiling_source = "cached";
  DeviceInfo d;
  d.kind = DeviceKind::kCuda;
  d.name = "NVIDIA H200";
  d.sm_clock_mhz = 1980;
  r.device = d;
  r.build.attempted = r.build.ok = true;
  r.build.compiler = "nvcc 13.0";
  r.build.sandbox = {{"landlock", true, "ABI 7: read-only toolchain"}, {"network_namespace", false, "unshare: EPERM"}};
  CaseResult c;
  c.name = "perf_4m";
  c.kind = CaseKind::kPerformance;
  c.scalars = {{"N", 4194304}};
  c.verdict = Verdict::kWrongAnswer;
  c.detail = "output[0] = 1, expected 2";
  c.event = Summarize({0.0089, 0.0090, 0.0091});
  c.hot = Summarize({0.0087});
  c.audit.honest_median_ms = 0.0090;
  c.gbps = 1864;
  c.sm_clock_mhz = 1975;
  c.throttled_discarded = 2;
  c.samples = {{0.0089, 0, 1975, 0}, {0.0091, 1, 1980, 0}, {0.0090, 2, 1965, 1}};
  c.flags = {"implausible"};
  CheckResult check;
  check.expected = 2;
  check.got = 1;
  check.tolerance_used = 1e5;
  c.check = check;
  c.deterministic = false;
  r.cases.push_back(c);
  Json first = ReportToJson(r);
  auto back = ReportFromJson(first);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(ReportToJson(*back).dump(), first.dump());
  EXPECT_FALSE(ReportFromJson(Json{{"schema", "something else"}}).ok());
}

TEST(GradingPolicy, SplitsCorrectnessAndScalesPerformanceWithTheMetric) {
  RunReport r;
  r.ceiling_gbps = 4000;
  r.verdict = Verdict::kAccepted;
  for (int i = 0; i < 4; ++i) {
    CaseResult c;
    c.name = "case" + std::to_string(i);
    c.verdict = Verdict::kAccepted;
    r.cases.push_back(c);
  }
  r.cases[3].kind = CaseKind::kPerformance;
  r.cases[3].gbps = 2400;
  r.cases[3].roofline_pct = 60;  // of the ceiling that binds: halfway from 30 to 90
  GradingPolicy p;
  Score s = ScoreRun(r, p);
  EXPECT_DOUBLE_EQ(s.total(), 80 + 10);
  EXPECT_DOUBLE_EQ(s.max_total(), 100);
  r.cases[3].flags.push_back("work escaped the event window");
  EXPECT_DOUBLE_EQ(ScoreRun(r, p).total(), 80);  // a flagged figure earns no speed points
  r.cases[3].flags.clear();
  r.cases[1].verdict = Verdict::kWrongAnswer;
  Score failed = ScoreRun(r, p);
  EXPECT_DOUBLE_EQ(failed.total(), 60);  // 3 of 4 cases, and no speed points
  EXPECT_NE(failed.performance_note.find("every case accepted"), std::string::npos);

  auto custom = GradingPolicyFromJson(Json::parse(R"({"correctness_points": 10, "performance_points": 90,
      "performance": {"metric": "median_us", "zero_at": 100, "full_at": 10}})"),
                                      "test");
  ASSERT_TRUE(custom.ok());
  r.cases[1].verdict = Verdict::kAccepted;
  r.cases[3].audit.honest_median_ms = 0.055;  // 55 us: halfway from 100 down to 10
  EXPECT_DOUBLE_EQ(ScoreRun(r, *custom).total(), 10 + 45);
  EXPECT_FALSE(GradingPolicyFromJson(Json::parse(R"({"performance": {"metric": "speed"}})"), "test").ok());
  EXPECT_FALSE(GradingPolicyFromJson(Json::parse(R"({"correctness_points": -1})"), "test").ok());
}

TEST(Svg, BarChartHasABarPerValueAndTheReferenceLine) {
  BarChart c;
  c.title = "t <&>";
  c.bars = {{"a", 10, "10", "bar"}, {"b", 20, "20", "bar bad"}};
  c.reference = 25;
  c.reference_label = "ceiling";
  std::string svg = RenderBarChart(c);
  size_t bars = 0;
  for (size_t at = svg.find("<rect"); at != std::string::npos; at = svg.find("<rect", at + 1)) ++bars;
  EXPECT_EQ(bars, 2u);
  EXPECT_NE(svg.find("class=\"reference\""), std::string::npos);
  EXPECT_NE(svg.find("t &lt;&amp;&gt;"), std::string::npos);
}

}  // namespace
}  // namespace judge

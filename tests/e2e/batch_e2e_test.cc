// SPDX-License-Identifier: MIT
// `judge batch` and `judge merge` end to end, through the host test double: every output format,
// resuming, sharding, and the HTML report rendered by a real browser (headless Chromium).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "judge/util/fs.h"
#include "tests/judge_cli.h"

namespace judge::testing {
namespace {
namespace fs = std::filesystem;

fs::path Scratch() {
  static fs::path dir = fs::temp_directory_path() / ("judge-batch-e2e-" + std::to_string(::getpid()));
  return dir;
}

// A course's folder: two correct kernels (one 16x slower), a crash, a float-accumulation WA and a
// compile error.
fs::path MakeSubmissions() {
  fs::path dir = Scratch() / "students";
  fs::create_directories(dir);
  for (const char* f : {"good_sum.cc", "slow_sum.cc", "crash_on_large.cc", "float_accumulate.cc"})
    fs::copy_file(SourcePath(std::string("tests/host_submissions/") + f), dir / f,
                  fs::copy_options::overwrite_existing);
  std::ofstream(dir / "broken.cc")
      << "extern \"C\" void solve(const float* in, float* out, int N) { this is not C++ }\n";
  return dir;
}

JudgeRun Judge(std::vector<std::string> args) {
  args.insert(args.end(), {"--root", JUDGE_SOURCE_DIR});
  if (args[0] == "batch")
    args.insert(args.end(), {"--device", "host", "--testcases", SourcePath("tests/e2e/testcases/reduction"),
                             "--cache-dir", JUDGE_TEST_CACHE_DIR});
  return RunJudge(args);
}

Json ReadJson(const fs::path& p) {
  auto text = ReadFile(p.string());
  return text ? Json::parse(*text, nullptr, false) : Json();
}

std::string ReadText(const fs::path& p) { return ReadFile(p.string()).value_or(""); }

class Batch : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    fs::remove_all(Scratch());
    students_ = MakeSubmissions().string();
    unsharded_ = (Scratch() / "all").string();
    first_ = Judge({"batch", students_, "--out", unsharded_});
  }
  static void TearDownTestSuite() { fs::remove_all(Scratch()); }
  static std::string students_, unsharded_;
  static JudgeRun first_;
};
std::string Batch::students_, Batch::unsharded_;
JudgeRun Batch::first_;

TEST_F(Batch, WritesEveryFormatForEverySubmissionAndTheBatch) {
  EXPECT_NE(first_.output.find("1 runner (the host test double, no GPU)"), std::string::npos) << first_.output;
  ASSERT_EQ(first_.exit_code, 0) << first_.output;  // graded: failing students are results, not errors
  EXPECT_NE(first_.output.find("[  5/5]"), std::string::npos) << first_.output;  // progress
  EXPECT_NE(first_.output.find("ETA"), std::string::npos);
  Json batch = ReadJson(fs::path(unsharded_) / "batch.json");
  ASSERT_TRUE(batch.is_object());
  EXPECT_EQ(batch["schema"], "gpu-judge.batch");
  ASSERT_EQ(batch["entries"].size(), 5u);
  std::map<std::string, std::string> verdicts;
  for (const auto& e : batch["entries"]) verdicts[e["name"]] = e["verdict"];  // named relative to students/
  EXPECT_EQ(verdicts["good_sum.cc"], "AC");
  EXPECT_EQ(verdicts["slow_sum.cc"], "AC");
  EXPECT_EQ(verdicts["crash_on_large.cc"], "RE");
  EXPECT_EQ(verdicts["float_accumulate.cc"], "WA");
  EXPECT_EQ(verdicts["broken.cc"], "CE");
  ASSERT_EQ(batch["leaderboard"].size(), 2u);  // accepted only, fastest first
  EXPECT_EQ(batch["leaderboard"][0]["name"], "good_sum.cc");
  EXPECT_EQ(batch["leaderboard"][0]["rank"], 1);
  EXPECT_EQ(batch["leaderboard"][1]["rank"], 2);  // 16x slower: no overlap, no tie

  for (const char* f : {"leaderboard.md", "report.html", "scores.csv", "junit.xml"})
    EXPECT_TRUE(fs::exists(fs::path(unsharded_) / f)) << f;
  EXPECT_NE(ReadText(fs::path(unsharded_) / "leaderboard.md").find("| 1 | "), std::string::npos);
  std::string junit = (fs::path(unsharded_) / "junit.xml").string();
  ASSERT_EQ(std::system("command -v xmllint >/dev/null"), 0) << "xmllint is installed by scripts/install-deps.sh";
  std::string validate = "xmllint --noout --schema " + SourcePath("tests/schemas/junit.xsd") + " " + junit + " 2>&1";
  EXPECT_EQ(std::system(validate.c_str()), 0) << validate;

  int folders = 0;
  for (const auto& d : fs::directory_iterator(fs::path(unsharded_) / "submissions")) {
    ++folders;
    for (const char* f : {"report.json", "junit.xml", "results.json", "summary.md", "report.html"})
      EXPECT_TRUE(fs::exists(d.path() / f)) << d.path() << "/" << f;
    Json g = ReadJson(d.path() / "results.json");  // Gradescope's fields, scored by grading.json
    for (const char* key : {"score", "max_score", "output", "tests", "visibility", "execution_time"})
      EXPECT_TRUE(g.contains(key)) << key;
    EXPECT_DOUBLE_EQ(g["max_score"].get<double>(), 100);
  }
  EXPECT_EQ(folders, 5);
}

// The judge's clock is calibrated once per case for all the runs sharing a batch: the worker of the
// run that calibrates exits first (no submission code may run beside the calibration), and the
// others keep theirs, so their timed cases pay no worker exit and start.
TEST(BatchWorkers, OnlyTheRunThatCalibratesACaseChangesWorkerForIt) {
  fs::path dir = fs::temp_directory_path() / ("judge-batch-workers-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "in");
  for (const char* name : {"first.cc", "second.cc"})
    std::ofstream(dir / "in" / name) << "#include <cstdio>\n#include <unistd.h>\n"
                                        "extern \"C\" void solve(const float* in, float* out, int N) {\n"
                                        "  std::printf(\"worker %d\\n\", int(getpid()));\n"
                                        "  double s = 0;\n  for (int i = 0; i < N; ++i) s += in[i];\n"
                                        "  out[0] = float(s);\n}\n";
  JudgeRun r =
      Judge({"batch", (dir / "in").string(), "--out", (dir / "out").string(), "--cases", "small_int,perf_small"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // The workers a case's calls ran in, from what solve() printed.
  auto workers = [](const Json& report, const std::string& name) {
    std::set<std::string> pids;
    for (const auto& c : report["cases"])
      if (c["name"] == name) {
        std::istringstream lines(c["stdout"].get<std::string>());
        for (std::string line; std::getline(lines, line);)
          if (line.rfind("worker ", 0) == 0) pids.insert(line.substr(7));
      }
    return pids;
  };
  int kept = 0, changed = 0;
  for (const auto& d : fs::directory_iterator(dir / "out" / "submissions")) {
    Json report = ReadJson(d.path() / "report.json");
    ASSERT_EQ(report["verdict"], "AC") << d.path();
    auto functional = workers(report, "small_int"), timed = workers(report, "perf_small");
    ASSERT_EQ(functional.size(), 1u) << report.dump().substr(0, 2000);
    ASSERT_EQ(timed.size(), 1u) << report.dump().substr(0, 2000);  // every timed call in one worker
    (functional == timed ? kept : changed)++;
  }
  EXPECT_EQ(kept, 1);
  EXPECT_EQ(changed, 1);
  fs::remove_all(dir);
}

// A result graded without a profile is not one with it: --profile regrades (found in review).
TEST_F(Batch, ProfileIsPartOfTheKey) {
  fs::path one = Scratch() / "students-profile";
  fs::remove_all(one);
  fs::create_directories(one);
  fs::copy(fs::path(students_) / "good_sum.cc", one / "good_sum.cc");
  std::string out = (Scratch() / "profile").string();
  ASSERT_EQ(Judge({"batch", one.string(), "--out", out}).exit_code, 0);
  JudgeRun profiled = Judge({"batch", one.string(), "--out", out, "--profile"});
  EXPECT_EQ(profiled.output.find("kept"), std::string::npos) << profiled.output;
  EXPECT_NE(profiled.output.find("[  1/1]"), std::string::npos) << profiled.output;
}

TEST_F(Batch, ARerunKeepsResultsAndRegradesOnlyWhatChanged) {
  fs::path students = Scratch() / "students-rerun";
  fs::remove_all(students);
  fs::copy(students_, students);
  std::string out = (Scratch() / "rerun").string();
  ASSERT_EQ(Judge({"batch", students.string(), "--out", out}).exit_code, 0);
  JudgeRun again = Judge({"batch", students.string(), "--out", out});
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_NE(again.output.find("kept 5 result(s)"), std::string::npos) << again.output;
  EXPECT_EQ(again.output.find("[  1/5]"), std::string::npos) << "nothing should be regraded:\n" << again.output;

  std::ofstream(students / "good_sum.cc", std::ios::app) << "// edited\n";
  JudgeRun edited = Judge({"batch", students.string(), "--out", out});
  EXPECT_NE(edited.output.find("kept 4 result(s)"), std::string::npos) << edited.output;
  int good_sum_folders = 0;
  for (const auto& d : fs::directory_iterator(fs::path(out) / "submissions"))
    good_sum_folders += d.path().filename().string().find("good_sum") != std::string::npos;
  EXPECT_EQ(good_sum_folders, 1);  // the stale result is gone

  JudgeRun forced = Judge({"batch", students.string(), "--out", out, "--force", "--strict"});
  EXPECT_EQ(forced.exit_code, 1) << forced.output;  // --strict: some submissions were rejected
  EXPECT_NE(forced.output.find("[  5/5]"), std::string::npos);
}

TEST_F(Batch, ShardedAndMergedEqualsUnsharded) {
  std::string s0 = (Scratch() / "shard0").string(), s1 = (Scratch() / "shard1").string(),
              merged = (Scratch() / "merged").string();
  ASSERT_EQ(Judge({"batch", students_, "--out", s0, "--shard", "0/2"}).exit_code, 0);
  ASSERT_EQ(Judge({"batch", students_, "--out", s1, "--shard", "1/2"}).exit_code, 0);
  EXPECT_FALSE(fs::exists(fs::path(s0) / "batch.json"));  // a shard writes its submissions only
  size_t n0 = std::distance(fs::directory_iterator(fs::path(s0) / "submissions"), {});
  size_t n1 = std::distance(fs::directory_iterator(fs::path(s1) / "submissions"), {});
  EXPECT_EQ(n0, 3u);
  EXPECT_EQ(n1, 2u);
  // A merge before the second shard ends lists its students as not graded (exit 5), with a
  // placeholder in their folders; the merge after it leaves none of them behind.
  JudgeRun early = Judge({"merge", s0, "--out", merged});
  ASSERT_EQ(early.exit_code, 5) << early.output;
  JudgeRun m = Judge({"merge", s0, s1, "--out", merged});
  ASSERT_EQ(m.exit_code, 0) << m.output;
  for (const auto& e : fs::recursive_directory_iterator(merged))
    if (e.path().filename() == "results.json")
      EXPECT_EQ(ReadText(e.path()).find("not graded"), std::string::npos) << e.path();

  Json a = ReadJson(fs::path(unsharded_) / "batch.json"), b = ReadJson(fs::path(merged) / "batch.json");
  ASSERT_EQ(a["entries"].size(), b["entries"].size());
  for (size_t i = 0; i < a["entries"].size(); ++i)
    // Not "accepted" (the hidden twin's size is per run) nor "cases": the twin is skipped when its
    // official case took one call over the timing budget, which a loaded CI machine decides by chance.
    for (const char* key : {"name", "key", "dir", "verdict"})
      EXPECT_EQ(a["entries"][i][key], b["entries"][i][key]) << i << " " << key;
  ASSERT_EQ(a["leaderboard"].size(), b["leaderboard"].size());
  for (size_t i = 0; i < a["leaderboard"].size(); ++i) {
    EXPECT_EQ(a["leaderboard"][i]["name"], b["leaderboard"][i]["name"]);
    EXPECT_EQ(a["leaderboard"][i]["rank"], b["leaderboard"][i]["rank"]);
  }
  // The timings of two gradings differ; the same results give the same files, byte for byte.
  std::string again = (Scratch() / "remerged").string();
  ASSERT_EQ(Judge({"merge", unsharded_, "--out", again}).exit_code, 0);
  for (const char* f : {"batch.json", "leaderboard.md", "scores.csv", "junit.xml", "report.html"})
    EXPECT_EQ(ReadText(fs::path(unsharded_) / f), ReadText(fs::path(again) / f)) << f;
}

// A course server passes an absolute folder: the results name each submission relative to it
// (students share file names, so the folder is what tells them apart) and never say where the
// grading machine keeps the files, not even in a compiler's message.
TEST_F(Batch, NamesEntriesRelativeToAnAbsoluteFolderAndKeepsItsPathOutOfTheResults) {
  fs::path students = Scratch() / "course" / "students";
  ASSERT_TRUE(students.is_absolute());
  for (auto [who, source] : {std::pair{"alice", "good_sum.cc"}, {"bob", "crash_on_large.cc"}}) {
    fs::create_directories(students / who);
    fs::copy_file(SourcePath(std::string("tests/host_submissions/") + source), students / who / "kernel.cc");
  }
  fs::create_directories(students / "carol");
  std::ofstream(students / "carol" / "kernel.cc")
      << "extern \"C\" void solve(const float* in, float* out, int N) { not C++ }\n";
  fs::path out = Scratch() / "course-results";
  JudgeRun r = Judge({"batch", students.string(), "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("] alice/kernel.cc "), std::string::npos) << r.output;  // progress

  Json batch = ReadJson(out / "batch.json");
  std::vector<std::string> names, dirs;
  for (const auto& e : batch["entries"]) {
    names.push_back(e["name"]);
    const std::string dir = e["dir"];  // NAME-NAMEHASH-KEY
    dirs.push_back(dir.substr(0, dir.rfind('-', dir.rfind('-') - 1)));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"alice/kernel.cc", "bob/kernel.cc", "carol/kernel.cc"}));
  EXPECT_EQ(dirs, (std::vector<std::string>{"submissions/alice_kernel.cc", "submissions/bob_kernel.cc",
                                            "submissions/carol_kernel.cc"}));
  EXPECT_EQ(batch["leaderboard"][0]["name"], "alice/kernel.cc");
  for (const char* f : {"leaderboard.md", "scores.csv", "report.html"})
    EXPECT_NE(ReadText(out / f).find("bob/kernel.cc"), std::string::npos) << f;
  EXPECT_NE(ReadText(out / "junit.xml").find("carol/kernel.cc:1:"), std::string::npos)
      << "the compiler's message, by name";
  for (const char* f : {"batch.json", "leaderboard.md", "scores.csv", "junit.xml", "report.html"})
    EXPECT_EQ(ReadText(out / f).find(Scratch().string()), std::string::npos)
        << f << " names the grading machine's folder";
}

// Found in review: two students whose names read alike once made safe for a folder, with the same
// unchanged starter code, shared a results folder, and a rerun listed one of them twice.
TEST_F(Batch, NamesThatReadAlikeKeepFoldersOfTheirOwn) {
  const fs::path dir = Scratch() / "alike";
  fs::create_directories(dir);
  for (const char* name : {"a b.cc", "a_b.cc", "M\xC3\xBCller.cc", "M\xC3\xB6ller.cc"})
    fs::copy_file(SourcePath("tests/host_submissions/good_sum.cc"), dir / name, fs::copy_options::overwrite_existing);
  const std::string out = (Scratch() / "alike-results").string();
  for (int run = 0; run < 2; ++run) {  // the rerun keeps each one's own result
    JudgeRun r = Judge({"batch", dir.string(), "--out", out, "--cases", "example"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  std::vector<std::string> names;
  const Json batch = ReadJson(fs::path(out) / "batch.json");
  for (const auto& e : batch["entries"]) names.push_back(e["name"]);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"M\xC3\xB6ller.cc", "M\xC3\xBCller.cc", "a b.cc", "a_b.cc"}))
      << batch.dump(1).substr(0, 2000);
  size_t folders = 0;
  for (const auto& e : fs::directory_iterator(fs::path(out) / "submissions")) folders += e.is_directory();
  EXPECT_EQ(folders, 4u);
}

// Found in review: a run over fewer files into a course's results folder replaced its plan, and
// the merge then published only those, exit 0. It is refused, naming whom it would drop.
TEST_F(Batch, ANarrowerRunIntoTheSameFolderIsRefusedUnlessForced) {
  const std::string out = (Scratch() / "narrower").string();
  ASSERT_EQ(Judge({"batch", students_, "--out", out, "--cases", "example"}).exit_code, 0);
  const std::string one = (fs::path(students_) / "good_sum.cc").string();
  JudgeRun narrower = Judge({"batch", one, "--out", out, "--cases", "example"});
  EXPECT_EQ(narrower.exit_code, 2) << narrower.output;
  EXPECT_NE(narrower.output.find("plans 4 submission(s) this run does not (broken.cc, crash_on_large.cc"),
            std::string::npos)
      << narrower.output;
  EXPECT_EQ(ReadJson(fs::path(out) / "plan.json")["submissions"].size(), 5u) << "the plan is untouched";
  JudgeRun forced = Judge({"batch", one, "--out", out, "--cases", "example", "--force"});
  EXPECT_EQ(forced.exit_code, 0) << forced.output;
}

// Found in review: one corrupt result failed the whole merge (exit 2, no files). With a plan its
// student is listed as not graded, the reason is said, and everyone else is published.
TEST_F(Batch, ACorruptResultLeavesItsStudentNotGradedAndTheRestPublished) {
  const fs::path copy = Scratch() / "corrupt";
  fs::copy(unsharded_, copy, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  std::string victim;
  for (const auto& e : fs::directory_iterator(copy / "submissions"))
    if (e.path().filename().string().rfind("good_sum.cc-", 0) == 0) {
      std::ofstream(e.path() / "report.json") << "{\"schema\": ";  // torn
      victim = e.path().string();
    }
  ASSERT_FALSE(victim.empty());
  const std::string merged = (Scratch() / "corrupt-merged").string();
  JudgeRun m = Judge({"merge", copy.string(), "--out", merged});
  EXPECT_EQ(m.exit_code, 5) << m.output;
  EXPECT_NE(m.output.find("a result cannot be read, left out"), std::string::npos) << m.output;
  const Json batch = ReadJson(fs::path(merged) / "batch.json");
  ASSERT_EQ(batch["not_graded"].size(), 1u) << batch.dump(1).substr(0, 1500);
  EXPECT_EQ(batch["not_graded"][0]["name"], "good_sum.cc");
  EXPECT_EQ(batch["entries"].size(), 4u);
}

TEST_F(Batch, BadInputsAreUsageErrors) {
  EXPECT_EQ(Judge({"batch", (Scratch() / "no-such-folder").string()}).exit_code, 2);
  JudgeRun shard = Judge({"batch", students_, "--shard", "2/2"});
  EXPECT_EQ(shard.exit_code, 2);
  EXPECT_NE(shard.output.find("0 <= I < N"), std::string::npos) << shard.output;
  JudgeRun merge = Judge({"merge", students_});
  EXPECT_EQ(merge.exit_code, 2);
  EXPECT_NE(merge.output.find("not a batch results folder"), std::string::npos) << merge.output;
}

// The HTML report must be something a browser draws: Chromium renders it headless; its DOM holds
// the SVG charts' bars and the ceiling line, and the screenshot is a real picture.
TEST_F(Batch, HtmlReportRendersItsChartsInHeadlessChromium) {
  std::string browser;
  for (const char* b : {"chromium", "chromium-browser", "google-chrome"})
    if (std::system((std::string("command -v ") + b + " >/dev/null 2>&1").c_str()) == 0) {
      browser = b;
      break;
    }
  if (browser.empty()) GTEST_SKIP() << "no Chromium here (scripts/install-deps.sh installs it on Debian)";
  fs::path html = fs::path(unsharded_) / "report.html";
  fs::path dom = Scratch() / "dom.html", png = Scratch() / "report.png";
  std::string flags = " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars ";
  std::string dump = browser + flags + "--dump-dom file://" + html.string() + " > " + dom.string() + " 2>/dev/null";
  ASSERT_EQ(std::system(dump.c_str()), 0) << dump;
  std::string rendered = ReadText(dom);
  size_t bars = 0;
  for (size_t at = rendered.find("<rect class=\"bar"); at != std::string::npos;
       at = rendered.find("<rect class=\"bar", at + 1))
    ++bars;
  EXPECT_EQ(bars, 3u + 3u);  // bandwidth and time charts: the crash and the compile error have no figure
  EXPECT_NE(rendered.find("class=\"reference\""), std::string::npos);  // the ceiling line
  std::string shot = browser + flags + "--window-size=1100,1000 --screenshot=" + png.string() + " file://" +
                     html.string() + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(shot.c_str()), 0) << shot;
  ASSERT_TRUE(fs::exists(png));
  EXPECT_GT(fs::file_size(png), 20000u);  // a blank page is a few KB
}

}  // namespace
}  // namespace judge::testing

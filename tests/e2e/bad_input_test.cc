// SPDX-License-Identifier: MIT
// Bad input found by fuzzing the judge ("Untrusted submissions, round two", item 6): each test
// holds one finding to its fix. Bad input is exit 2 with a message that names the file and field
// or the option; it never crashes the judge, hangs it, or costs a file it was not asked to write.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "judge/util/fs.h"
#include "judge/util/utf8.h"
#include "tests/judge_cli.h"

namespace judge::testing {
namespace {
namespace fs = std::filesystem;

// A fresh folder per test, removed after it.
class BadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("judge-bad-input-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::string Write(const std::string& name, const std::string& text) const {
    fs::create_directories(fs::path(Path(name)).parent_path());
    std::ofstream(Path(name), std::ios::binary) << text;
    return Path(name);
  }
  // `judge run FILE` on the host double with the e2e testcases, and `extra`; nothing added.
  static std::vector<std::string> Run(const std::string& submission, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {
        "run",         submission,           "--device",    "host",
        "--root",      JUDGE_SOURCE_DIR,     "--testcases", SourcePath("tests/e2e/testcases/reduction"),
        "--cache-dir", JUDGE_TEST_CACHE_DIR, "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  static std::string Good() { return SourcePath("tests/host_submissions/good_sum.cc"); }

  fs::path dir_;
};

#define EXPECT_USAGE_ERROR(run, text)                                      \
  do {                                                                     \
    EXPECT_EQ((run).exit_code, 2) << (run).output;                         \
    EXPECT_NE((run).output.find(text), std::string::npos) << (run).output; \
  } while (0)

TEST_F(BadInput, ADeviceOrAFifoIsRefusedAsASubmissionTestcaseOrPolicy) {
  fs::create_symlink("/dev/zero", Path("k.cc"));
  EXPECT_USAGE_ERROR(RunJudgeExactly(Run(Path("k.cc")), 30),
                     Path("k.cc") + " is a character device: the judge reads only regular files");
  ASSERT_EQ(::mkfifo(Path("fifo.cc").c_str(), 0600), 0);
  JudgeRun fifo = RunJudgeExactly(Run(Path("fifo.cc")), 30);
  EXPECT_FALSE(fifo.timed_out);
  EXPECT_USAGE_ERROR(fifo, "is a FIFO (named pipe)");
  fs::create_directories(Path("cases"));
  fs::create_symlink("/dev/zero", Path("cases/cases.json"));
  EXPECT_USAGE_ERROR(RunJudgeExactly(Run(Good(), {"--testcases", Path("cases")}), 30),
                     Path("cases/cases.json") + " is a character device");
  EXPECT_USAGE_ERROR(RunJudgeExactly(Run(Good(), {"--points", "/dev/zero"}), 30), "/dev/zero is a character device");
}

// Every file under `dir`, read.
std::map<std::string, std::string> FilesUnder(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[e.path().string()] = ReadFile(e.path().string()).value_or("(unreadable)");
  return files;
}

std::string Text(const std::string& path) { return ReadFile(path).value_or("(missing)"); }

const char* kLatin1CompileError =
    "extern \"C\" void solve(const float* in, float* out, int N) { const char* s = \"caf\xe9\" + ; }\n";
const char* kGbkCompileError = "extern \"C\" void solve(const float* in, float* out, int N) { \xc4\xe3\xba\xc3 }\n";

// Found by fuzzing: one student file in Latin-1 (or GBK) whose compile log quotes the line aborted
// the batch with SIGABRT (nlohmann's type_error 316), nothing graded, every rerun the same; so did
// a file name that is not UTF-8.
TEST_F(BadInput, TextThatIsNotUtf8ReachesEveryBatchFileAsReplacementCharacters) {
  Write("students/alice/kernel.cc", kLatin1CompileError);
  Write("students/bob/kernel.cc", kGbkCompileError);
  Write("students/b\xe9la/kernel.cc", Text(Good()));
  std::vector<std::string> args = {
      "batch",   Path("students"), "--out",          Path("out"),          "--device",
      "host",    "--root",         JUDGE_SOURCE_DIR, "--testcases",        SourcePath("tests/e2e/testcases/reduction"),
      "--cases", "example",        "--cache-dir",    JUDGE_TEST_CACHE_DIR, "-q"};
  JudgeRun r = RunJudgeExactly(args, 300);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto files = FilesUnder(Path("out"));
  EXPECT_GE(files.size(), 5u + 3 * 6);
  for (const auto& [path, text] : files) EXPECT_TRUE(IsValidUtf8(text)) << path;
  Json batch = Json::parse(files.at(Path("out/batch.json")));
  std::map<std::string, std::string> verdicts;
  for (const auto& e : batch["entries"]) verdicts[e["name"]] = e["verdict"];
  EXPECT_EQ(verdicts, (std::map<std::string, std::string>{
                          {"alice/kernel.cc", "CE"}, {"bob/kernel.cc", "CE"}, {"b\xEF\xBF\xBDla/kernel.cc", "AC"}}));
  bool quoted = false;
  for (const auto& [path, text] : files) quoted |= text.find("caf\xEF\xBF\xBD") != std::string::npos;
  EXPECT_TRUE(quoted) << "the log's line is carried, its Latin-1 byte replaced";
  std::string junit = Path("out/junit.xml");
  EXPECT_EQ(std::system(
                ("xmllint --noout --schema " + SourcePath("tests/schemas/junit.xsd") + " " + junit + " 2>&1").c_str()),
            0);
  JudgeRun again = RunJudgeExactly(args, 300);  // and a rerun keeps what it graded
  EXPECT_EQ(again.exit_code, 0) << again.output;
}

TEST_F(BadInput, JudgeRunKeepsItsReportsWhenTheCompileLogIsNotUtf8) {
  std::string k = Write("k\xe9.cc", kLatin1CompileError);
  JudgeRun r = RunJudgeExactly(
      Run(k, {"--format", "text,json,junit,gradescope,markdown,html", "--out", Path("r.json"), "--junit", Path("r.xml"),
              "--gradescope", Path("g.json"), "--markdown", Path("r.md"), "--html", Path("r.html")}),
      120);
  EXPECT_EQ(r.exit_code, 1) << r.output;  // CE: the submission's, and reported
  EXPECT_TRUE(IsValidUtf8(r.output));
  for (const char* f : {"r.json", "r.xml", "g.json", "r.md", "r.html"}) {
    std::string text = Text(Path(f));
    EXPECT_TRUE(IsValidUtf8(text)) << f;
    EXPECT_NE(text.find("\xEF\xBF\xBD"), std::string::npos) << f;
  }
  Json report = Json::parse(Text(Path("r.json")));
  EXPECT_EQ(report["verdict"], "CE");
  EXPECT_NE(report["build"]["log"].get<std::string>().find("\"caf\xEF\xBF\xBD\" + ;"), std::string::npos)
      << report["build"]["log"];
}

TEST_F(BadInput, ASubmissionsExceptionThatIsNotUtf8IsReportedNotLost) {
  std::string k = Write("throw.cc",
                        "#include <stdexcept>\nextern \"C\" void solve(const float*, float*, int) { "
                        "throw std::runtime_error(\"caf\xe9\"); }\n");
  JudgeRun r = RunJudgeExactly(Run(k, {"--cases", "example", "--out", Path("r.json")}), 120);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  Json report = Json::parse(Text(Path("r.json")));
  EXPECT_EQ(report["verdict"], "RE");
  EXPECT_NE(report["cases"][0]["detail"].get<std::string>().find("caf\xEF\xBF\xBD"), std::string::npos)
      << report["cases"][0]["detail"];
}

// Found by fuzzing: `judge run k.cu --out k.cu` destroyed the source, `judge run missing.cu --out
// old.json` emptied old.json: files were truncated before anything was checked.
TEST_F(BadInput, ReportFilesAreWrittenAfterTheInputsAreCheckedAndNeverOverTheSubmission) {
  const std::string source = Text(Good());
  std::string k = Write("k.cc", source);
  for (const char* option : {"--out", "--junit", "--gradescope", "--markdown", "--html"}) {
    JudgeRun r = RunJudgeExactly(Run(k, {option, k}), 60);
    EXPECT_USAGE_ERROR(
        r, std::string(option) + " " + k + " is " + k + ", a submission being graded: the report would overwrite it");
    EXPECT_EQ(Text(k), source) << option;
  }
  fs::create_symlink(k, Path("link.json"));
  EXPECT_USAGE_ERROR(RunJudgeExactly(Run(k, {"--out", Path("link.json")}), 60), "a submission being graded");
  fs::remove(Path("link.json"));
  std::string old = Write("old.json", "{\"kept\": true}\n");
  EXPECT_USAGE_ERROR(RunJudgeExactly(Run(Path("missing.cc"), {"--out", old}), 60), "submission not found");
  EXPECT_EQ(Text(old), "{\"kept\": true}\n");
  EXPECT_USAGE_ERROR(RunJudgeExactly(Run(k, {"--testcases", Path("none"), "--junit", old}), 60),
                     "testcase folder not found");
  EXPECT_EQ(Text(old), "{\"kept\": true}\n");
  EXPECT_USAGE_ERROR(RunJudgeExactly(Run(k, {"--out", old, "--html", old}), 60), "--out and --html both name " + old);
  EXPECT_USAGE_ERROR(RunJudgeExactly(Run(k, {"--out", Path("")}), 60), "is a folder: give the file to write");
  // A good run replaces the file whole.
  JudgeRun ok = RunJudgeExactly(Run(k, {"--cases", "example", "--out", old}), 120);
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_EQ(Json::parse(Text(old))["verdict"], "AC");
  EXPECT_EQ(FilesUnder(dir_).size(), 2u) << "no temporary is left behind";
}

TEST_F(BadInput, ALadderMarkdownFileIsNeverOneOfItsSubmissions) {
  const std::string source = Text(Good());
  std::string k = Write("ladder/good_sum.cc", source);
  JudgeRun r = RunJudgeExactly(
      {"ladder", Path("ladder"), "--device", "host", "--root", JUDGE_SOURCE_DIR, "--testcases",
       SourcePath("tests/e2e/testcases/reduction"), "--cache-dir", JUDGE_TEST_CACHE_DIR, "--markdown", k},
      60);
  EXPECT_USAGE_ERROR(r, "--markdown " + k + " is ");
  EXPECT_EQ(Text(k), source);
}

// Found by fuzzing: `--out /dev/full` exited 0 with the report lost, and `--format ""` printed
// nothing.
TEST_F(BadInput, AReportThatCannotBeWrittenIsAnErrorNamingTheFileAndTheReason) {
  JudgeRun full = RunJudgeExactly(Run(Good(), {"--cases", "example", "--out", "/dev/full"}), 120);
  EXPECT_EQ(full.exit_code, 4) << full.output;
  EXPECT_NE(full.output.find("--out: cannot write /dev/full: No space left on device"), std::string::npos)
      << full.output;
  struct stat st {};
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device itself is never replaced";
  EXPECT_EQ(RunJudgeExactly(Run(Good(), {"--cases", "example", "--out", "/dev/null"}), 120).exit_code, 0);
  for (const char* format : {"", ","})
    EXPECT_USAGE_ERROR(RunJudgeExactly(Run(Good(), {"--format", format}), 60), "--format needs a format: text, json");
}

// Found by fuzzing: nonsense limits were accepted silently (`--call-timeout 1e18` overflowed into
// instant timeouts, `--memory-limit-mb 1` was MLE blamed on the submission).
TEST_F(BadInput, LimitsOutsideTheirRangeAreUsageErrorsNamingTheRange) {
  struct Row {
    std::vector<std::string> args;
    std::string error;
  };
  const std::string students = SourcePath("tests/host_submissions");
  const Row rows[] = {
      {Run(Good(), {"--call-timeout", "0"}), "--call-timeout must be 0.001 to 86400 seconds, not 0"},
      {Run(Good(), {"--call-timeout", "-5"}), "--call-timeout must be 0.001 to 86400 seconds, not -5"},
      {Run(Good(), {"--call-timeout", "1e18"}), "--call-timeout must be 0.001 to 86400 seconds, not 1e+18"},
      {Run(Good(), {"--memory-limit-mb", "0"}), "--memory-limit-mb must be 64 to 16777216 MiB, not 0"},
      {Run(Good(), {"--memory-limit-mb", "-1"}), "--memory-limit-mb must be 64 to 16777216 MiB, not -1"},
      {Run(Good(), {"--memory-limit-mb", "1"}), "--memory-limit-mb must be 64 to 16777216 MiB, not 1"},
      {{"batch", students, "--device", "host", "--jobs", "-5"}, "--jobs must be 0 to 1024, not -5"},
      {{"batch", students, "--device", "host", "--shard", "0/99999999999"},
       "--shard takes I/N with 0 <= I < N <= 100000"},
      {{"compare", Good(), Good(), "--device", "host", "--rounds", "100000000"},
       "--rounds must be 2 to 1000, not 100000000"},
      {Run(Good(), {"--timing-processes", "x"}), "--timing-processes: Argument"},  // cxxopts names only the value
      {Run(Good(), {"--call-timeout=soon"}), "--call-timeout: Argument"},
  };
  for (const Row& r : rows) EXPECT_USAGE_ERROR(RunJudgeExactly(r.args, 60), r.error);
}

// Found by fuzzing: more than 1 MiB of literal values made a correct submission RE ("exited with
// code 0 before the case started"): the worker could not read the case request.
TEST_F(BadInput, LiteralValuesAreBoundedAtLoadAndTheMostAllowedAreJudged) {
  auto literal_case = [](const std::string& name, size_t n) {
    std::string values;
    for (size_t i = 0; i < n; ++i) values += (i ? ",-0.123456789012345678" : "-0.123456789012345678");
    return "{\"name\": \"" + name + "\", \"scalars\": {\"N\": " + std::to_string(n) +
           "}, \"inputs\": {\"input\": {\"values\": [" + values + "]}}}";
  };
  Write("most/cases.json", "{\"problem\": \"reduction\", \"cases\": [" + literal_case("most", 32768) + "]}");
  JudgeRun most = RunJudgeExactly(Run(Good(), {"--testcases", Path("most")}), 120);
  EXPECT_EQ(most.exit_code, 0) << most.output;
  Write("over/cases.json", "{\"problem\": \"reduction\", \"cases\": [" + literal_case("over", 60000) + "]}");
  EXPECT_USAGE_ERROR(RunJudgeExactly(Run(Good(), {"--testcases", Path("over")}), 60),
                     Path("over/cases.json") +
                         ": cases[0].inputs.input.values: the case's literal values number 60000, more "
                         "than the 32768 a case may hold");
}

// Found by fuzzing: after Ctrl-C, batch claimed the leaderboard and reports it had not written.
TEST_F(BadInput, AnInterruptedBatchSaysOnlyWhatItWrote) {
  Write("students/hang.cc", Text(SourcePath("tests/adversarial/host_hang.cc")));
  const std::string log = Path("batch.log");
  pid_t pid = fork();
  if (pid == 0) {
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    execl(JUDGE_BINARY, JUDGE_BINARY, "batch", Path("students").c_str(), "--out", Path("out").c_str(), "--device",
          "host", "--root", JUDGE_SOURCE_DIR, "--testcases", SourcePath("tests/e2e/testcases/reduction").c_str(),
          "--call-timeout", "60", "--cache-dir", JUDGE_TEST_CACHE_DIR, nullptr);
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(3000));  // inside the hanging call
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  std::string said = Text(log);
  EXPECT_NE(said.find("interrupted: 0 submission(s) graded and written to " + Path("out") +
                      "/submissions; no leaderboard or "
                      "batch reports were written: run the same command again to grade the rest"),
            std::string::npos)
      << said;
  EXPECT_EQ(said.find("leaderboard and reports in"), std::string::npos) << said;
  EXPECT_FALSE(fs::exists(Path("out/batch.json")));
}

// Found by fuzzing `judge merge`: an entry.json that is an array was exit 4 without the file's
// name; a read-only --out was exit 4 without the reason; a truncated report.json stopped the merge
// without saying that rerunning the batch repairs it. With the batch's plan, a broken result now
// leaves its student not graded (exit 5) and the merge still says which file and how to repair it.
#define EXPECT_NOT_GRADED(run, text)                                       \
  do {                                                                     \
    EXPECT_EQ((run).exit_code, 5) << (run).output;                         \
    EXPECT_NE((run).output.find(text), std::string::npos) << (run).output; \
  } while (0)

TEST_F(BadInput, MergeNamesTheBrokenFileAndHowToRepairIt) {
  Write("students/alice.cc", Text(Good()));
  std::vector<std::string> batch = {
      "batch",   Path("students"), "--out",          Path("r0"),           "--device",
      "host",    "--root",         JUDGE_SOURCE_DIR, "--testcases",        SourcePath("tests/e2e/testcases/reduction"),
      "--cases", "example",        "--cache-dir",    JUDGE_TEST_CACHE_DIR, "-q"};
  ASSERT_EQ(RunJudgeExactly(batch, 120).exit_code, 0);
  fs::path entry = fs::directory_iterator(Path("r0/submissions"))->path();
  auto merge = [&] { return RunJudgeExactly({"merge", Path("r0"), "--out", Path("merged")}, 60); };
  std::string meta = Text((entry / "entry.json").string());
  std::ofstream(entry / "entry.json") << "[1, 2]";
  EXPECT_NOT_GRADED(merge(), (entry / "entry.json").string() + ": (top level): expected an object, got an array");
  std::ofstream(entry / "entry.json") << meta;
  std::string report = Text((entry / "report.json").string());
  std::ofstream(entry / "report.json") << report.substr(0, report.size() / 2);
  JudgeRun truncated = merge();
  EXPECT_NOT_GRADED(truncated, (entry / "report.json").string());
  EXPECT_NOT_GRADED(truncated, "invalid JSON");
  EXPECT_NOT_GRADED(truncated, "re-running the `judge batch` that wrote " + Path("r0") +
                                   " (same inputs, same --out) grades that submission again and repairs it");
  EXPECT_NOT_GRADED(truncated, "shard 0/1: alice.cc");
  // Without the plan nobody can say whose result it was: still bad input.
  fs::remove(Path("r0/plan.json"));
  EXPECT_USAGE_ERROR(merge(), (entry / "report.json").string());
  ASSERT_EQ(RunJudgeExactly(batch, 120).exit_code, 0);  // as said
  EXPECT_EQ(merge().exit_code, 0);
  JudgeRun readonly = RunJudgeExactly({"merge", Path("r0"), "--out", "/sys/kernel/judge-merge"}, 60);
  EXPECT_EQ(readonly.exit_code, 4) << readonly.output;
  EXPECT_NE(readonly.output.find("/sys/kernel/judge-merge"), std::string::npos) << readonly.output;
  EXPECT_TRUE(readonly.output.find("Permission denied") != std::string::npos ||
              readonly.output.find("Operation not permitted") != std::string::npos)
      << readonly.output;
}

}  // namespace
}  // namespace judge::testing

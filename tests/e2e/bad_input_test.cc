// SPDX-License-Identifier: MIT
// Bad input found by fuzzing the judge ("Untrusted submissions, round two", item 6): each test
// holds one finding to its fix. Bad input is exit 2 with a message that names the file and field
// or the option; it never crashes the judge, hangs it, or costs a file it was not asked to write.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "judge/util/fs.h"
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

}  // namespace
}  // namespace judge::testing

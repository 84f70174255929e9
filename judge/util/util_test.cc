// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "judge/util/fs.h"
#include "judge/util/sha256.h"
#include "judge/util/size_expr.h"
#include "judge/util/subprocess.h"

namespace judge {
namespace {

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalEqualsOneShot) {
  Sha256 h;
  h.Update("hello ");
  h.Update("world");
  EXPECT_EQ(h.HexDigest(), Sha256Hex("hello world"));
}

TEST(SizeExpr, EvaluatesWithScalars) {
  ScalarValues s{{"N", 1000}};
  EXPECT_EQ(EvalSizeExpr("N", s).value(), 1000);
  EXPECT_EQ(EvalSizeExpr("1", s).value(), 1);
  EXPECT_EQ(EvalSizeExpr("(N + 255) / 256", s).value(), 4);
  EXPECT_EQ(EvalSizeExpr("2*N - 3 % 2", s).value(), 1999);
}

TEST(SizeExpr, ErrorsNameTheProblem) {
  ScalarValues s{{"N", 4}};
  auto unknown = EvalSizeExpr("M * 2", s);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown scalar 'M'"), std::string::npos);
  EXPECT_FALSE(EvalSizeExpr("N / 0", s).ok());
  EXPECT_FALSE(EvalSizeExpr("(N", s).ok());
  EXPECT_FALSE(EvalSizeExpr("N $", s).ok());
}

TEST(Subprocess, CapturesOutputAndExitCode) {
  auto r = RunProcess({"sh", "-c", "echo out; echo err >&2; exit 7"}, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 7);
  EXPECT_NE(r->output.find("out"), std::string::npos);
  EXPECT_NE(r->output.find("err"), std::string::npos);
}

TEST(Subprocess, KillsAtTheDeadline) {
  auto r = RunProcess({"sh", "-c", "sleep 30"}, ProcessOptions{0.3, 1024, ""});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_LT(r->seconds, 5);
}

TEST(Subprocess, CapsOutput) {
  auto r = RunProcess({"sh", "-c", "yes | head -c 100000"}, ProcessOptions{10, 1000, ""});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->output.size(), 1000u);
  EXPECT_TRUE(r->output_truncated);
}

TEST(Subprocess, GivenEnvironmentReplacesTheJudgesWhole) {
  ::setenv("JUDGE_TEST_SECRET", "hunter2", 1);
  ProcessOptions options;
  options.env = std::vector<std::string>{"ONLY=this"};
  auto r = RunProcess({"/usr/bin/env"}, options);
  ::unsetenv("JUDGE_TEST_SECRET");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->output, "ONLY=this\n");
}

TEST(Subprocess, BeforeExecRunsInTheChildAndCanRefuseToStart) {
  ProcessOptions options;
  options.before_exec = [](int output_fd) {
    (void)!::write(output_fd, "confined\n", 9);
    return ::getpid() == ::getpgrp() ? 0 : 1;  // in the child, which leads its own process group
  };
  auto r = RunProcess({"sh", "-c", "echo ran"}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->output, "confined\nran\n");
  options.before_exec = [](int) { return 125; };
  r = RunProcess({"sh", "-c", "echo ran"}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 125);
  EXPECT_EQ(r->output, "");
}

TEST(Subprocess, MissingProgramIsAnError) { EXPECT_FALSE(RunProcess({"/nonexistent/program"}, {}).ok()); }

TEST(Subprocess, DescribesSignals) { EXPECT_EQ(DescribeSignal(11).rfind("SIGSEGV", 0), 0u); }

TEST(Fs, AtomicWriteLeavesNoTemporaries) {
  auto dir = MakeTempDir(std::filesystem::temp_directory_path().string(), "judge-fs-test-");
  ASSERT_TRUE(dir.ok());
  std::string path = *dir + "/sub/file.txt";
  ASSERT_TRUE(WriteFileAtomic(path, "one").ok());
  ASSERT_TRUE(WriteFileAtomic(path, "two").ok());
  EXPECT_EQ(ReadFile(path).value(), "two");
  int entries = 0;
  for (auto& e : std::filesystem::directory_iterator(*dir + "/sub")) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1);
  RemoveTree(*dir);
}

TEST(Fs, MissingFileIsAUsageError) {
  auto r = ReadFile("/nonexistent/x.cu");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  EXPECT_NE(r.error().message.find("/nonexistent/x.cu"), std::string::npos);
}

}  // namespace
}  // namespace judge

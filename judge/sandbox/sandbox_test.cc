// SPDX-License-Identifier: MIT
// Each test confines a forked child and checks, from the inside, what it may and may not do.
#include "judge/sandbox/sandbox.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "judge/util/fs.h"

namespace judge {
namespace {

namespace fs = std::filesystem;

// Runs `body` in a sandboxed child; returns its exit code, or 128 + signal.
int InSandbox(const std::string& scratch, const std::function<int()>& body, SandboxReport* report_out = nullptr) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    SandboxPolicy policy;
    policy.scratch_dir = scratch;
    SandboxReport report;
    ApplyEarly(policy, &report);
    ApplyLate(policy, &report);
    std::string j = SandboxReportToJson(report).dump();
    (void)!write(pipefd[1], j.data(), j.size());
    close(pipefd[1]);
    _exit(body());
  }
  close(pipefd[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = read(pipefd[0], buf, sizeof buf)) > 0) text.append(buf, size_t(n));
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (report_out) *report_out = SandboxReportFromJson(Json::parse(text, nullptr, false));
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

bool Active(const SandboxReport& r, const std::string& name) {
  for (const auto& p : r)
    if (p.name == name) return p.active;
  return false;
}

class SandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // A secret outside every allowed folder, like the judge's testcases.
    secret_dir_ = MakeTempDir(fs::current_path().string(), "judge-secret-").value();
    ASSERT_TRUE(WriteFileAtomic(secret_dir_ + "/expected.json", "{\"answer\": 42}").ok());
    scratch_ = MakeTempDir(fs::temp_directory_path().string(), "judge-scratch-").value();
    if (geteuid() == 0) {
      ASSERT_EQ(chown(scratch_.c_str(), 65534, 65534), 0);
    }
    SandboxReport report;
    InSandbox(
        scratch_, [] { return 0; }, &report);
    landlock_ = Active(report, "landlock");
    seccomp_ = Active(report, "seccomp");
  }
  void TearDown() override {
    RemoveTree(secret_dir_);
    RemoveTree(scratch_);
  }
  std::string secret_dir_, scratch_;
  bool landlock_ = false, seccomp_ = false;
};

TEST_F(SandboxTest, ReportsEveryLayer) {
  SandboxReport report;
  EXPECT_EQ(InSandbox(
                scratch_, [] { return 0; }, &report),
            0);
  for (const char* layer : {"rlimits", "network_namespace", "unprivileged", "no_new_privs", "landlock", "seccomp"}) {
    bool found = false;
    for (const auto& p : report) found |= p.name == layer;
    EXPECT_TRUE(found) << layer;
  }
}

TEST_F(SandboxTest, CannotReadFilesOutsideTheAllowedFolders) {
  if (!landlock_) GTEST_SKIP() << "Landlock is not available on this kernel";
  std::string secret = secret_dir_ + "/expected.json";
  EXPECT_EQ(InSandbox(scratch_, [&] { return std::fopen(secret.c_str(), "r") == nullptr ? 0 : 1; }), 0);
}

TEST_F(SandboxTest, CanWriteItsScratchFolderOnly) {
  if (!landlock_) GTEST_SKIP() << "Landlock is not available on this kernel";
  std::string inside = scratch_ + "/ok.txt", outside = secret_dir_ + "/planted.txt";
  EXPECT_EQ(InSandbox(scratch_,
                      [&] {
                        FILE* a = std::fopen(inside.c_str(), "w");
                        FILE* b = std::fopen(outside.c_str(), "w");
                        return (a != nullptr && b == nullptr) ? 0 : 1;
                      }),
            0);
  EXPECT_FALSE(fs::exists(outside));
}

TEST_F(SandboxTest, ExecIsKilled) {
  if (!seccomp_) GTEST_SKIP() << "built without libseccomp";
  EXPECT_EQ(InSandbox(scratch_,
                      [] {
                        execl("/bin/true", "true", nullptr);
                        return 0;
                      }),
            128 + SIGSYS);
}

TEST_F(SandboxTest, ForkIsKilled) {
  if (!seccomp_) GTEST_SKIP() << "built without libseccomp";
  EXPECT_EQ(InSandbox(scratch_, [] { return fork() >= 0 ? 0 : 0; }), 128 + SIGSYS);
}

TEST_F(SandboxTest, InternetSocketsAreKilled) {
  if (!seccomp_) GTEST_SKIP() << "built without libseccomp";
  EXPECT_EQ(InSandbox(scratch_, [] { return socket(AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 0; }), 128 + SIGSYS);
}

TEST_F(SandboxTest, ThreadsStillWork) {
  EXPECT_EQ(InSandbox(scratch_,
                      [] {
                        std::thread t([] {});
                        t.join();
                        return 0;
                      }),
            0);
}

TEST_F(SandboxTest, DisabledPolicyAppliesNothing) {
  SandboxPolicy off;
  off.enabled = false;
  SandboxReport report;
  ApplyEarly(off, &report);
  ASSERT_EQ(report.size(), 1u);
  EXPECT_FALSE(report[0].active);
}

}  // namespace
}  // namespace judge

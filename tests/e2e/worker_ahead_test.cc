// SPDX-License-Identifier: MIT
// WorkerAhead with real workers (`judge __worker` on the host test double): a spare is started,
// handed over with its device open, never handed to a supervisor of another kind, and every worker
// it started or retired is gone, folder and all, when it is.
#include "judge/supervise/worker_ahead.h"
#include "judge/supervise/worker_process.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <csignal>

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "judge/util/fs.h"

namespace judge {
namespace {

namespace fs = std::filesystem;

// Until exec a child is a copy of the judge and shares its resident set (GBs during a large case):
// Spawn returns only once the child is the worker, so the memory watch never measures the judge.
TEST(WorkerProcess, SpawnReturnsOnceTheChildIsNoLongerTheJudge) {
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self);
  ASSERT_GT(n, 0);
  for (int i = 0; i < 20; ++i) {
    auto w = WorkerProcess::Spawn(WorkerLaunch{{"/bin/sleep", "5"}});
    ASSERT_TRUE(w) << w.error().message;
    char exe[4096];
    const std::string link = "/proc/" + std::to_string((*w)->pid()) + "/exe";
    const ssize_t m = ::readlink(link.c_str(), exe, sizeof exe);
    ASSERT_GT(m, 0);
    EXPECT_NE(std::string(exe, size_t(m)), std::string(self, size_t(n))) << "spawn " << i;
  }
}

// Under ncu or compute-sanitizer the worker is the tool's child: watched alone, the tool's process
// would hide it, and a profiled call could take all of the host's memory.
TEST(WorkerProcess, UnderAToolTheWorkersMemoryCountsToo) {
  // A shell that stays (`; :`) as a tool does, its child holding 256 MiB it has written.
  const std::vector<std::string> tool = {"/bin/sh", "-c",
                                         "python3 -c 'import time; b = b\"x\" * (256 << 20); time.sleep(10)'; :"};
  WorkerLaunch launch{tool};
  launch.memory_limit_bytes = 128u << 20;
  launch.watch_descendants = true;
  auto watched = WorkerProcess::Spawn(launch);
  ASSERT_TRUE(watched) << watched.error().message;
  EXPECT_EQ((*watched)->Next(8).kind, WorkerEvent::Kind::kMemoryLimit);
  EXPECT_GT((*watched)->peak_rss_bytes(), uint64_t(128) << 20);  // caught while it grows
  (*watched)->Kill();
  launch.watch_descendants = false;  // the shell alone stays far under the limit
  auto unwatched = WorkerProcess::Spawn(launch);
  ASSERT_TRUE(unwatched) << unwatched.error().message;
  EXPECT_EQ((*unwatched)->Next(3).kind, WorkerEvent::Kind::kTimeout);
  (*unwatched)->Kill();
}

class WorkerAheadTest : public ::testing::Test {
 protected:
  void SetUp() override {  // the worker folders land in a folder of the test's own
    // As the judge does (cli/command.cc): a worker that died must not kill us through its pipe.
    std::signal(SIGPIPE, SIG_IGN);
    if (const char* t = std::getenv("TMPDIR")) saved_ = t;
    auto dir = MakeTempDir(fs::temp_directory_path().string(), "worker-ahead-test-");
    ASSERT_TRUE(dir);
    tmp_ = *dir;
    ::setenv("TMPDIR", tmp_.c_str(), 1);
  }
  void TearDown() override {
    if (saved_)
      ::setenv("TMPDIR", saved_->c_str(), 1);
    else
      ::unsetenv("TMPDIR");
    RemoveTree(tmp_);
  }
  size_t WorkerFolders() const {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(tmp_))
      n += e.path().filename().string().rfind("gpu-judge-worker-", 0) == 0;
    return n;
  }
  static WorkerRecipe HostRecipe(FlushMode flush = FlushMode::kRead) {
    WorkerRecipe r;
    r.argv = {JUDGE_BINARY, "__worker"};
    r.env = {"LC_ALL=C"};
    r.init.device = DeviceKind::kHost;
    r.init.flush = flush;
    r.init.sandbox.enabled = false;
    r.init_seconds = 30;
    return r;
  }
  std::string tmp_;
  std::optional<std::string> saved_;
};

TEST_F(WorkerAheadTest, HandsOverAStartedWorkerOnlyForTheSameRecipe) {
  WorkerAhead ahead;
  EXPECT_FALSE(ahead.Take(HostRecipe()));  // nothing prepared
  ahead.Prepare(HostRecipe());
  ahead.Prepare(HostRecipe());  // one spare per recipe
  EXPECT_EQ(ahead.started(), 1u);
  EXPECT_FALSE(ahead.Take(HostRecipe(FlushMode::kWrite)));  // another kind of worker does not fit
  auto spare = ahead.Take(HostRecipe());
  ASSERT_TRUE(spare);
  EXPECT_EQ(ahead.taken(), 1u);
  EXPECT_TRUE(fs::is_directory(spare->scratch));
  EXPECT_EQ(::kill(spare->process->pid(), 0), 0);  // alive, its device open, waiting for the next request
  ASSERT_TRUE(spare->process->Send(Encode(LoadMessage{spare->scratch + "/none.so", "solve"}).header));
  auto ev = spare->process->Next(30);  // it answers like any worker that just opened its device
  ASSERT_EQ(ev.kind, WorkerEvent::Kind::kFrame);
  EXPECT_EQ(ev.frame.header.value("type", ""), "sandboxed");
  std::string scratch = spare->scratch;
  ahead.Retire(std::move(*spare), 5);
  ahead.Quiesce();
  EXPECT_FALSE(fs::exists(scratch));  // exited in the background, folder removed
}

TEST_F(WorkerAheadTest, SparesNobodyTookAreKilledWithTheirFolders) {
  pid_t pid = -1;
  {
    WorkerAhead ahead;
    ahead.Prepare(HostRecipe());
    ahead.Quiesce();  // started and idle
    EXPECT_EQ(WorkerFolders(), 1u);
    auto spare = ahead.Take(HostRecipe());
    ASSERT_TRUE(spare);
    pid = spare->process->pid();
    ahead.Retire(std::move(*spare), 5);
    ahead.Prepare(HostRecipe());  // another spare, never taken
  }
  EXPECT_EQ(WorkerFolders(), 0u);
  EXPECT_NE(::kill(pid, 0), 0);
}

TEST_F(WorkerAheadTest, AWorkerThatCannotStartIsNoSpare) {
  WorkerAhead ahead;
  WorkerRecipe broken = HostRecipe();
  broken.argv = {"/bin/false"};  // exits at once: it never says its device is open
  ahead.Prepare(broken);
  EXPECT_FALSE(ahead.Take(broken));  // the supervisor then starts its own and reports the fault
  EXPECT_EQ(WorkerFolders(), 0u);
}

}  // namespace
}  // namespace judge

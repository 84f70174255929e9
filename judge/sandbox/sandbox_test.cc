// SPDX-License-Identifier: MIT
// Each test confines a forked child and checks, from the inside, what it may and may not do.
#include "judge/sandbox/sandbox.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <thread>

#include "judge/sandbox/code_seal.h"
#include "judge/util/fs.h"

namespace judge {
namespace {

namespace fs = std::filesystem;

// Runs `body` in a sandboxed child; returns its exit code, or 128 + signal. `before` runs in the
// child first (to set up the circumstances a test needs).
int InSandbox(const std::string& scratch, const std::function<int()>& body, SandboxReport* report_out = nullptr,
              const std::function<void()>& before = {}, const std::vector<std::string>& skip = {}) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    if (before) before();
    SandboxPolicy policy;
    policy.scratch_dir = scratch;
    policy.skip = skip;
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

// For InSandbox's `before`: the child's stderr goes to `path`, where a test reads what it wrote.
std::function<void()> StderrTo(const std::string& path) {
  return [path] {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDERR_FILENO);
    ::close(fd);
  };
}

const Protection* Find(const SandboxReport& r, const std::string& name) {
  for (const auto& p : r)
    if (p.name == name) return &p;
  return nullptr;
}

bool Active(const SandboxReport& r, const std::string& name) {
  const Protection* p = Find(r, name);
  return p && p->active;
}

// A judge run by a user other than root: the child gives root up before the sandbox starts, and is
// dumpable again like a process that user started (a uid change makes a process undumpable, which
// makes its /proc files root's, the user namespace's id maps included).
void BecomeUnprivileged() {
  if (geteuid() == 0 && (DropRoot().error != 0 || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0)) _exit(90);
}

// What a kernel (or Docker's default seccomp profile) does where user namespaces are disabled.
void RefuseNamespaces() {
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_unshare, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program{static_cast<unsigned short>(std::size(filter)), filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0)
    _exit(91);
}

// Only the loopback interface exists (and it is down): the private network namespace. Read from
// /proc, as the sandbox kills a process that opens a netlink socket.
int OnlyLoopback() {
  std::ifstream dev("/proc/self/net/dev");
  if (!dev) return 2;
  std::string line;
  int others = 0;
  for (int i = 0; std::getline(dev, line); ++i) {
    if (i < 2) continue;  // the table's two header lines
    std::string name = line.substr(0, line.find(':'));
    name.erase(0, name.find_first_not_of(' '));
    others += name != "lo";
  }
  return others == 0 ? 0 : 1;
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
  for (const char* layer :
       {"rlimits", "network_namespace", "code_seal", "unprivileged", "no_new_privs", "landlock", "seccomp"}) {
    bool found = false;
    for (const auto& p : report) found |= p.name == layer;
    EXPECT_TRUE(found) << layer;
  }
}

// A worker that stays root (the profiled one, `unprivileged` skipped) holds neither CAP_NET_RAW nor
// CAP_NET_ADMIN, in the thread that was sandboxed and in a thread started afterwards: a raw socket
// is refused by the kernel even with seccomp, which stops it first, left out.
TEST_F(SandboxTest, ARootWorkerHoldsNoNetworkCapabilityInAnyThread) {
  if (geteuid() != 0) GTEST_SKIP() << "not root: the worker drops nothing it does not have";
  auto raw_socket_refused = [] {
    const int fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
    if (fd >= 0) close(fd);
    return fd < 0 && errno == EPERM;
  };
  // Without the drop this root opens one (else the test would show nothing).
  if (raw_socket_refused()) GTEST_SKIP() << "this root holds no CAP_NET_RAW to begin with (a container)";
  SandboxReport report;
  EXPECT_EQ(InSandbox(scratch_,
                      [&] {
                        bool in_thread = false;
                        std::thread t([&] { in_thread = raw_socket_refused(); });
                        t.join();
                        return raw_socket_refused() && in_thread ? 0 : 1;
                      },
                      &report, {}, {"unprivileged", "seccomp"}),
            0);
  const Protection* caps = Find(report, "network_capabilities");
  ASSERT_NE(caps, nullptr);
  EXPECT_TRUE(caps->active) << caps->detail;
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

// The profiled worker's filter (run/profile_run.h) lets internet and netlink sockets through for
// ncu's library; each rule is left out alone, and the rest of the filter holds.
TEST_F(SandboxTest, NetlinkSocketsCanBeLetThroughAsWell) {
  if (!seccomp_) GTEST_SKIP() << "built without libseccomp";
  const std::vector<std::string> skip = {std::string(kNetlinkSocketsRule)};
  SandboxReport report;
  EXPECT_EQ(InSandbox(
                scratch_, [] { return socket(AF_NETLINK, SOCK_RAW, 0) >= 0 ? 0 : 1; }, &report, {}, skip),
            0);
  const Protection* seccomp = Find(report, "seccomp");
  ASSERT_NE(seccomp, nullptr);
  EXPECT_NE(seccomp->detail.find("internet, packet sockets (netlink sockets let through"), std::string::npos)
      << seccomp->detail;
  EXPECT_NE(seccomp->detail.find("netlink sockets other than NETLINK_ROUTE still stopped"), std::string::npos)
      << seccomp->detail;
  // Only the family that lists the host's interfaces: netfilter's (the firewall) is still stopped,
  // and the line names its protocol.
  const std::string log = scratch_ + "/netfilter.txt";
  EXPECT_EQ(InSandbox(
                scratch_, [] { return socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER) >= 0 ? 0 : 0; }, nullptr,
                StderrTo(log), skip),
            128 + SIGSYS);
  EXPECT_EQ(StoppedCallLine(ReadFile(log).value_or("")),
            "judge sandbox: stopped the forbidden system call socket (netlink, protocol 12)");
  EXPECT_EQ(
      InSandbox(
          scratch_, [] { return syscall(SYS_socket, AF_NETLINK, SOCK_RAW, (1L << 32) | NETLINK_ROUTE) >= 0 ? 0 : 0; },
          nullptr, {}, skip),
      128 + SIGSYS);
  EXPECT_EQ(InSandbox(
                scratch_, [] { return socket(AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 0; }, nullptr, {}, skip),
            128 + SIGSYS);
  EXPECT_EQ(InSandbox(scratch_, [] { return socket(AF_PACKET, SOCK_RAW, 0) >= 0 ? 0 : 0; }, nullptr, {},
                      {std::string(kNetlinkSocketsRule), std::string(kInternetSocketsRule)}),
            128 + SIGSYS);
}

// socket() reads ints: bits above a domain's 32 do not slip it past the rules; io_uring, which makes
// sockets and other calls without a system call of their own, is stopped.
TEST_F(SandboxTest, NoSocketSlipsPastTheRulesThroughTheUpperBitsOrIoUring) {
  if (!seccomp_) GTEST_SKIP() << "built without libseccomp";
  EXPECT_EQ(InSandbox(scratch_, [] { return syscall(SYS_socket, (1L << 32) | AF_PACKET, SOCK_RAW, 0) >= 0 ? 0 : 0; }),
            128 + SIGSYS);
  EXPECT_EQ(InSandbox(scratch_, [] { return syscall(SYS_socket, (1L << 32) | AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 0; }),
            128 + SIGSYS);
#ifdef __NR_io_uring_setup
  EXPECT_EQ(InSandbox(scratch_,
                      [] {
                        char params[120] = {};
                        return syscall(__NR_io_uring_setup, 1, params) >= 0 ? 0 : 0;
                      }),
            128 + SIGSYS);
#endif
  // Where internet sockets are let through (the profiled worker), a raw one is still stopped.
  EXPECT_EQ(InSandbox(scratch_, [] { return socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP) >= 0 ? 0 : 0; },
                      nullptr, {}, {std::string(kInternetSocketsRule)}),
            128 + SIGSYS);
}

TEST_F(SandboxTest, InternetSocketsCanBeLetThroughAlone) {
  if (!seccomp_) GTEST_SKIP() << "built without libseccomp";
  const std::vector<std::string> skip = {std::string(kInternetSocketsRule)};
  SandboxReport report;
  EXPECT_EQ(InSandbox(
                scratch_, [] { return socket(AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 1; }, &report, {}, skip),
            0);
  const Protection* seccomp = Find(report, "seccomp");
  ASSERT_NE(seccomp, nullptr);
  EXPECT_TRUE(seccomp->active);
  EXPECT_NE(seccomp->detail.find("internet sockets let through"), std::string::npos) << seccomp->detail;
  EXPECT_EQ(InSandbox(
                scratch_, [] { return fork() >= 0 ? 0 : 0; }, nullptr, {}, skip),
            128 + SIGSYS);
  const std::string log = scratch_ + "/netlink.txt";
  auto to_log = StderrTo(log);
  EXPECT_EQ(InSandbox(
                scratch_, [] { return socket(AF_NETLINK, SOCK_RAW, 0) >= 0 ? 0 : 0; }, nullptr, to_log, skip),
            128 + SIGSYS);
  EXPECT_EQ(StoppedCallLine(ReadFile(log).value_or("")),
            "judge sandbox: stopped the forbidden system call socket (netlink, protocol 0)");
}

// The report says which call was stopped: the worker's stderr is kept with its case.
TEST_F(SandboxTest, AStoppedCallIsNamedOnStderr) {
  if (!seccomp_) GTEST_SKIP() << "built without libseccomp";
  const std::string log = scratch_ + "/stderr.txt";
  auto to_log = StderrTo(log);
  EXPECT_EQ(InSandbox(
                scratch_, [] { return socket(AF_INET6, SOCK_DGRAM, 0) >= 0 ? 0 : 0; }, nullptr, to_log),
            128 + SIGSYS);
  EXPECT_EQ(StoppedCallLine(ReadFile(log).value_or("")),
            "judge sandbox: stopped the forbidden system call socket (internet)");
  EXPECT_EQ(StoppedCallLine("noise\n"), "");
  EXPECT_EQ(ReadFile(log).value_or(""), "judge sandbox: stopped the forbidden system call socket (internet)\n");
  // Blocking SIGSYS does not save the process: the kernel forces it, the call still never runs.
  EXPECT_EQ(InSandbox(
                scratch_,
                [] {
                  sigset_t all;
                  sigfillset(&all);
                  sigprocmask(SIG_BLOCK, &all, nullptr);
                  return fork() >= 0 ? 0 : 0;
                },
                nullptr, to_log),
            128 + SIGSYS);
  // A submission that installs its own handler lives on, but the call never ran.
  EXPECT_EQ(InSandbox(
                scratch_,
                [] {
                  struct sigaction quiet {};
                  quiet.sa_handler = [](int) {};
                  sigaction(SIGSYS, &quiet, nullptr);
                  if (fork() == 0) _exit(0);  // a new process would end here
                  errno = 0;                  // the trapped call "returns" its own number: no child exists
                  return ::waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD ? 7 : 1;
                },
                nullptr, to_log),
            7);
}

// The page of libc that holds clock_gettime, which the harness's clocks read.
void* ClockCodePage() {
  return reinterpret_cast<void*>(uintptr_t(dlsym(RTLD_DEFAULT, "clock_gettime")) & ~uintptr_t(4095));
}

TEST_F(SandboxTest, SealedCodeCannotBeMadeWritableOrUnmapped) {
  SandboxReport report;
  int rc = InSandbox(
      scratch_,
      [] {
        void* page = ClockCodePage();
        if (mprotect(page, 4096, PROT_READ | PROT_WRITE) == 0) return 1;
        if (errno != EPERM) return 2;
        if (munmap(page, 4096) == 0) return 3;
        // Mapping fresh memory over it is refused the same way.
        if (mmap(page, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
          return 4;
        return 0;
      },
      &report);
  if (!Active(report, "code_seal")) GTEST_SKIP() << "no mseal here: " << Find(report, "code_seal")->detail;
  EXPECT_EQ(rc, 0) << "1: made writable, 2: refused but not by the seal, 3: unmapped, 4: mapped over";
}

TEST_F(SandboxTest, WritingCodeThroughProcSelfMemIsRefused) {
  if (!landlock_) GTEST_SKIP() << "Landlock is not available on this kernel";
  // /proc/self/mem writes ignore page protections: only not being able to open it for writing holds.
  EXPECT_EQ(InSandbox(scratch_, [] { return open("/proc/self/mem", O_RDWR) < 0 ? 0 : 1; }), 0);
}

TEST_F(SandboxTest, MemoryBothWritableAndExecutableIsRefused) {
  if (!seccomp_) GTEST_SKIP() << "built without libseccomp";
  EXPECT_EQ(InSandbox(scratch_,
                      [] {
                        void* rwx =
                            mmap(nullptr, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                        if (rwx != MAP_FAILED || errno != EPERM) return 1;
                        void* rw = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                        if (rw == MAP_FAILED) return 2;
                        if (mprotect(rw, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) == 0) return 3;
                        return mprotect(rw, 4096, PROT_READ | PROT_EXEC) == 0 ? 0 : 4;  // W^X: one or the other
                      }),
            0);
}

TEST_F(SandboxTest, AfterLoadNothingBecomesExecutable) {
  if (!seccomp_) GTEST_SKIP() << "built without libseccomp";
  EXPECT_EQ(InSandbox(scratch_,
                      [this] {
                        void* rw = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                        if (rw == MAP_FAILED) return 1;
                        SandboxPolicy policy;
                        policy.scratch_dir = scratch_;
                        SandboxReport after;
                        ApplyAfterLoad(policy, &after);
                        if (after.size() != 1 || after[0].name != "no_new_code" || !after[0].active) return 2;
                        if (mprotect(rw, 4096, PROT_READ | PROT_EXEC) == 0 || errno != EPERM) return 3;
                        // A library loaded now cannot map its code: dlopen fails instead of adding code
                        // (failing to map it, not for want of the file).
                        if (dlopen("libutil.so.1", RTLD_NOW) != nullptr) return 4;
                        const char* why = dlerror();
                        if (!why || !std::strstr(why, "map")) return 6;
                        return mprotect(rw, 4096, PROT_READ) == 0 ? 0 : 5;  // taking rights away still works
                      }),
            0);
}

TEST(SealableRanges, CodeReadOnlyDataAndTheVdsoButNothingWritableSharedOrAnonymous) {
  const std::string maps =
      "55d0a0000000-55d0a0010000 r--p 00000000 08:01 1234 /usr/bin/judge\n"
      "55d0a0010000-55d0a0200000 r-xp 00010000 08:01 1234 /usr/bin/judge\n"
      "55d0a0300000-55d0a0310000 rw-p 00300000 08:01 1234 /usr/bin/judge\n"
      "55d0a1000000-55d0a2000000 rw-p 00000000 00:00 0 [heap]\n"
      "7f0000000000-7f0000001000 ---p 00000000 00:00 0 \n"
      "7f0000100000-7f0000200000 r--s 00000000 00:05 77 /dev/nvidiactl\n"
      "7f0000300000-7f0000301000 r--p 00000000 00:05 78 /dev/zero\n"
      "7f0000400000-7f0000401000 r-xp 00000000 08:01 99 /tmp/my lib.so (deleted)\n"
      "7f0000500000-7f0000510000 r-xp 00000000 08:01 98 /opt/with space/lib.so\n"
      "7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0 [vdso]\n"
      "7ffd00010000-7ffd00020000 rw-p 00000000 00:00 0 [stack]\n"
      "garbage line\n";
  std::vector<MappedRange> r = SealableRanges(maps);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].begin, 0x55d0a0000000u);
  EXPECT_EQ(r[0].end, 0x55d0a0010000u);
  EXPECT_EQ(r[1].perms, "r-xp");
  EXPECT_EQ(r[2].path, "/opt/with space/lib.so");
  EXPECT_EQ(r[3].path, "[vdso]");
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

TEST_F(SandboxTest, WithoutRootTheNetworkNamespaceComesFromAUserNamespace) {
  std::string file = scratch_ + "/created-inside";
  SandboxReport report;
  int status = InSandbox(
      scratch_,
      [&] {
        // The user namespace maps the worker's own ids, so its files still belong to it.
        FILE* f = std::fopen(file.c_str(), "w");
        if (!f) return 3;
        std::fclose(f);
        return OnlyLoopback();
      },
      &report, BecomeUnprivileged);
  const Protection* net = Find(report, "network_namespace");
  ASSERT_NE(net, nullptr);
  if (!net->active && net->detail.find("refused too") != std::string::npos)
    GTEST_SKIP() << "user namespaces are disabled here: " << net->detail;
  EXPECT_EQ(status, 0) << "1: an interface other than lo is visible, 3: cannot create a file in the scratch folder";
  EXPECT_TRUE(net->active) << net->detail;
  EXPECT_NE(net->detail.find("inside an unprivileged user namespace"), std::string::npos) << net->detail;
  EXPECT_NE(net->detail.find("no capabilities"), std::string::npos) << net->detail;
  EXPECT_TRUE(Active(report, "unprivileged"));
  EXPECT_TRUE(fs::exists(file));
}

TEST_F(SandboxTest, WhereUserNamespacesAreRefusedTheOtherLayersStillApply) {
  SandboxReport report;
  EXPECT_EQ(InSandbox(
                scratch_, [] { return 0; }, &report,
                [] {
                  BecomeUnprivileged();
                  RefuseNamespaces();
                }),
            0);
  const Protection* net = Find(report, "network_namespace");
  ASSERT_NE(net, nullptr);
  EXPECT_FALSE(net->active);
  EXPECT_NE(net->detail.find("an unprivileged user namespace was refused too"), std::string::npos) << net->detail;
  EXPECT_NE(net->detail.find("Operation not permitted"), std::string::npos) << net->detail;
  EXPECT_TRUE(Active(report, "rlimits"));
  EXPECT_TRUE(Active(report, "no_new_privs"));
  EXPECT_EQ(Active(report, "landlock"), landlock_);
}

TEST_F(SandboxTest, AsRootTheNetworkNamespaceNeedsNoUserNamespace) {
  if (geteuid() != 0) GTEST_SKIP() << "runs as root only";
  pid_t probe = fork();
  if (probe == 0) _exit(unshare(CLONE_NEWNET) == 0 ? 0 : 1);
  int probed = 0;
  waitpid(probe, &probed, 0);
  if (WEXITSTATUS(probed) != 0)
    GTEST_SKIP() << "this root may not make a network namespace (a container without CAP_SYS_ADMIN)";
  SandboxReport report;
  EXPECT_EQ(InSandbox(scratch_, OnlyLoopback, &report), 0);
  const Protection* net = Find(report, "network_namespace");
  ASSERT_NE(net, nullptr);
  EXPECT_TRUE(net->active) << net->detail;
  EXPECT_EQ(net->detail, "private network namespace (loopback only, down)");
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

// SPDX-License-Identifier: MIT
#include "judge/sandbox/sandbox.h"

#include <linux/capability.h>
#include <linux/netlink.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <sstream>

#include "judge/sandbox/code_seal.h"

#ifdef JUDGE_HAVE_SECCOMP
#include <seccomp.h>
#endif

namespace judge {
namespace {

Protection Make(const std::string& name, bool active, const std::string& detail) { return {name, active, detail}; }

Protection ApplyLandlock(const SandboxPolicy& policy) {
  std::vector<PathRule> rules;
  for (const auto& p : SystemReadPaths()) rules.push_back({p, PathAccess::kRead});
  for (const auto& p : policy.read_paths) rules.push_back({p, PathAccess::kRead});
  rules.push_back({"/dev", PathAccess::kReadWriteFiles});  // the GPU's device files
  if (!policy.scratch_dir.empty()) rules.push_back({policy.scratch_dir, PathAccess::kFull});
  LandlockRuleset ruleset(rules);
  return ruleset.Describe(ruleset.RestrictSelf(), "read-only system folders, writable scratch folder only",
                          "files outside the scratch folder stay readable");
}

// ---- seccomp -------------------------------------------------------------------------------------

#ifdef JUDGE_HAVE_SECCOMP
// mmap, mprotect and pkey_mprotect asking for every bit of `prot` fail with EPERM.
int DenyProt(scmp_filter_ctx ctx, scmp_datum_t prot) {
  int rc = 0;
  for (int sc : {SCMP_SYS(mmap), SCMP_SYS(mprotect), SCMP_SYS(pkey_mprotect)})
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), sc, 1, SCMP_A2(SCMP_CMP_MASKED_EQ, prot, prot));
  return rc;
}

// Loads the filter when building it went well (`rc` 0), and frees it either way. CUDA and the
// submission's constructors may have started threads: the filter covers them too.
int LoadForAllThreads(scmp_filter_ctx ctx, int rc) {
  if (rc == 0) rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
  if (rc == 0) rc = seccomp_load(ctx);
  seccomp_release(ctx);
  return rc;
}
#endif

#ifdef JUDGE_HAVE_SECCOMP
// The system calls the filter stops, with their names for the line the worker leaves on stderr.
struct StoppedCall {
  long nr;
  const char* name;
};
constexpr StoppedCall kStopped[] = {
    {SCMP_SYS(execve), "execve"},
    {SCMP_SYS(execveat), "execveat"},
    {SCMP_SYS(fork), "fork"},
    {SCMP_SYS(vfork), "vfork"},
    {SCMP_SYS(clone), "clone (a new process)"},
    {SCMP_SYS(socket), "socket"},
    {SCMP_SYS(ptrace), "ptrace"},
    {SCMP_SYS(process_vm_readv), "process_vm_readv"},
    {SCMP_SYS(process_vm_writev), "process_vm_writev"},
    {SCMP_SYS(mount), "mount"},
    {SCMP_SYS(umount2), "umount2"},
    {SCMP_SYS(pivot_root), "pivot_root"},
    {SCMP_SYS(chroot), "chroot"},
    {SCMP_SYS(setns), "setns"},
    {SCMP_SYS(unshare), "unshare"},
    {SCMP_SYS(bpf), "bpf"},
    {SCMP_SYS(perf_event_open), "perf_event_open"},
    {SCMP_SYS(init_module), "init_module"},
    {SCMP_SYS(finit_module), "finit_module"},
    {SCMP_SYS(kexec_load), "kexec_load"},
    {SCMP_SYS(reboot), "reboot"},
    {SCMP_SYS(keyctl), "keyctl"},
    {SCMP_SYS(add_key), "add_key"},
    {SCMP_SYS(request_key), "request_key"},
    // io_uring makes sockets (IORING_OP_SOCKET) and other calls without a system call the filter sees.
    {SCMP_SYS(io_uring_setup), "io_uring_setup"},
};

// Async-signal-safe: a fixed buffer, write(2), no allocation.
void Append(char* buf, size_t& len, size_t cap, const char* text) {
  for (; *text && len + 1 < cap; ++text) buf[len++] = *text;
}

void AppendNumber(char* buf, size_t& len, size_t cap, unsigned long v) {
  char digits[24];
  int n = 0;
  do digits[n++] = char('0' + v % 10);
  while ((v /= 10) != 0 && n < 20);
  while (n > 0 && len + 1 < cap) buf[len++] = digits[--n];
}

// The stopped call's argument `i` (0-based), where this architecture's signal frame is known.
long long CallArgument(void* context, int i) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  static constexpr int kRegs[] = {REG_RDI, REG_RSI, REG_RDX};
  return uc->uc_mcontext.gregs[kRegs[i]];
#elif defined(__aarch64__)
  return static_cast<long long>(uc->uc_mcontext.regs[i]);
#else
  (void)uc;
  (void)i;
  return -1;
#endif
}

// Which kind of socket was asked for tells a profiler's loopback link (internet) from a probe of
// the host's interfaces (netlink); a netlink socket's protocol says which family of the kernel's.
void AppendSocketKind(char* buf, size_t& len, size_t cap, void* context) {
  const int domain = int(CallArgument(context, 0));  // socket() reads ints: the low halves
  switch (domain) {
    case AF_INET:
    case AF_INET6: return Append(buf, len, cap, " (internet)");
    case AF_PACKET: return Append(buf, len, cap, " (packet)");
    case AF_NETLINK: {
      Append(buf, len, cap, " (netlink, protocol ");
      AppendNumber(buf, len, cap, static_cast<unsigned>(int(CallArgument(context, 2))));
      return Append(buf, len, cap, ")");
    }
    default: return Append(buf, len, cap, " (internet, packet or netlink)");
  }
}

// SIGSYS from the filter (SECCOMP_RET_TRAP): the call did not run. Say which it was on stderr,
// which the judge keeps in the report, then end the process as a kill would (the handler was reset
// on entry, and SA_NODEFER lets the signal through at once). A submission that installs its own
// handler only stays alive: the call it asked for still never runs.
void OnStoppedCall(int, siginfo_t* info, void* context) {
  char buf[192];
  size_t len = 0;
  Append(buf, len, sizeof buf, kStoppedCallLine.data());
  const char* name = nullptr;
  for (const StoppedCall& c : kStopped)
    if (c.nr == info->si_syscall) name = c.name;
  if (name) {
    Append(buf, len, sizeof buf, name);
    if (info->si_syscall == SCMP_SYS(socket)) AppendSocketKind(buf, len, sizeof buf, context);
  } else {
    Append(buf, len, sizeof buf, "number ");
    AppendNumber(buf, len, sizeof buf, static_cast<unsigned long>(info->si_syscall));
  }
  Append(buf, len, sizeof buf, "\n");
  (void)!::write(STDERR_FILENO, buf, len);
  ::raise(SIGSYS);
}
#endif

Protection ApplySeccomp(const SandboxPolicy& policy) {
#ifdef JUDGE_HAVE_SECCOMP
  struct sigaction on_stop {};
  on_stop.sa_sigaction = OnStoppedCall;
  on_stop.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
  sigemptyset(&on_stop.sa_mask);
  if (::sigaction(SIGSYS, &on_stop, nullptr) != 0)
    return Make("seccomp", false, std::string("sigaction(SIGSYS): ") + std::strerror(errno));
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return Make("seccomp", false, "seccomp_init failed");
  // Trap, not kill: the handler above names the call, then the process ends by SIGSYS all the same
  // (the kernel forces the signal even where a thread blocks or ignores it).
  const uint32_t kill = SCMP_ACT_TRAP;
  int rc = 0;
  for (const StoppedCall& c : kStopped)
    if (c.nr != SCMP_SYS(clone) && c.nr != SCMP_SYS(socket)) rc |= seccomp_rule_add(ctx, kill, int(c.nr), 0);
  // Threads are clone(CLONE_THREAD); a new process is a clone without it.
  rc |= seccomp_rule_add(ctx, kill, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
  // clone3 hides its flags in memory seccomp cannot read: ENOSYS makes glibc fall back to clone.
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  const bool internet = policy.Skips(std::string(kInternetSocketsRule));
  const bool netlink = policy.Skips(std::string(kNetlinkSocketsRule));
  // socket() takes ints: the kernel drops an argument's upper 32 bits, so the rules compare only the
  // lower (a domain with bits set above them would otherwise pass every rule).
  const scmp_datum_t kLow = 0xffffffffu;
  for (int domain : {AF_INET, AF_INET6, AF_PACKET, AF_NETLINK}) {
    const bool let_through = domain == AF_NETLINK ? netlink : domain != AF_PACKET && internet;
    if (!let_through) {
      rc |= seccomp_rule_add(ctx, kill, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, kLow, scmp_datum_t(domain)));
    } else if (domain == AF_NETLINK) {
      // The profiler reads the host's interfaces, which is NETLINK_ROUTE; every other family
      // (netfilter, audit, uevents, XFRM, generic) stays stopped. A protocol with bits above the
      // int the kernel reads is stopped as well (NE compares all 64).
      rc |= seccomp_rule_add(ctx, kill, SCMP_SYS(socket), 2, SCMP_A0(SCMP_CMP_MASKED_EQ, kLow, scmp_datum_t(domain)),
                             SCMP_A2(SCMP_CMP_NE, scmp_datum_t(NETLINK_ROUTE)));
    } else {
      // ncu's link is a stream socket; raw ones (made to read or forge any packet) stay stopped.
      for (int type : {SOCK_RAW, SOCK_PACKET})
        rc |= seccomp_rule_add(ctx, kill, SCMP_SYS(socket), 2, SCMP_A0(SCMP_CMP_MASKED_EQ, kLow, scmp_datum_t(domain)),
                               SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, scmp_datum_t(type)));
    }
  }
  // Memory both writable and executable is how code gets rewritten in place; nothing the worker
  // or a compiled library needs (text relocations are not built), so it is refused, not killed.
  rc |= DenyProt(ctx, PROT_WRITE | PROT_EXEC);
  rc = LoadForAllThreads(ctx, rc);
  if (rc != 0) return Make("seccomp", false, std::string("seccomp_load: ") + std::strerror(-rc));
  std::string sockets = "non-Unix sockets";
  if (internet || netlink)
    sockets = std::string(internet ? "" : "internet, ") + "packet" + (netlink ? "" : ", netlink") + " sockets (" +
              (internet ? "internet" : "") + (internet && netlink ? " and " : "") + (netlink ? "netlink" : "") +
              " sockets let through: skipped " + (internet ? "internet_sockets" : "") +
              (internet && netlink ? ", " : "") + (netlink ? "netlink_sockets" : "") + ";" +
              (internet ? " raw internet sockets" : "") + (internet && netlink ? " and" : "") +
              (netlink ? " netlink sockets other than NETLINK_ROUTE" : "") + " still stopped)";
  return Make("seccomp", true,
              "ends the worker by SIGSYS on exec, fork, " + sockets +
                  ", ptrace, mount, bpf, io_uring, module loading (all threads), naming the call on stderr; refuses "
                  "writable-and-executable memory");
#else
  (void)policy;
  return Make("seccomp", false, "the judge was built without libseccomp (install libseccomp-dev and rebuild)");
#endif
}

// Once the library is loaded, nothing new becomes code: no executable mapping, no page made
// executable (a second filter: seccomp filters stack, and the first one stays).
Protection ApplyNoNewCode() {
#ifdef JUDGE_HAVE_SECCOMP
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return Make("no_new_code", false, "seccomp_init failed");
  int rc = LoadForAllThreads(ctx, DenyProt(ctx, PROT_EXEC));
  if (rc != 0) return Make("no_new_code", false, std::string("seccomp_load: ") + std::strerror(-rc));
  return Make("no_new_code", true,
              "after the library is loaded no memory can become executable (mmap, mprotect: EPERM; all threads)");
#else
  return Make("no_new_code", false, "the judge was built without libseccomp (install libseccomp-dev and rebuild)");
#endif
}

}  // namespace

std::string StoppedCallLine(std::string_view stderr_text) {
  const size_t at = stderr_text.rfind(kStoppedCallLine);
  if (at == std::string_view::npos) return "";
  const size_t end = stderr_text.find('\n', at);
  return std::string(stderr_text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
}

std::vector<std::string> SystemReadPaths() {
  std::vector<std::string> paths = {
      "/usr/lib",          "/usr/lib64", "/usr/lib32", "/usr/share", "/usr/local/lib", "/usr/local/cuda",
      "/usr/local/nvidia", "/lib",       "/lib64",     "/etc",       "/proc",          "/sys"};
  if (const char* cuda = std::getenv("CUDA_HOME")) paths.push_back(cuda);
  // The loader's folders (on the GPU machine the dependencies live outside /usr).
  if (const char* ld = std::getenv("LD_LIBRARY_PATH")) {
    std::stringstream ss(ld);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty()) paths.push_back(dir);
  }
  return paths;
}

bool SandboxPolicy::Skips(const std::string& layer) const {
  return std::find(skip.begin(), skip.end(), layer) != skip.end();
}

void ApplyEarly(const SandboxPolicy& policy, SandboxReport* report) {
  if (!policy.enabled) {
    report->push_back(Make("sandbox", false, "disabled with --no-sandbox"));
    return;
  }
  const ResourceLimit limits[] = {LimitAtMost(RLIMIT_CORE, 0, 0),
                                  LimitAtMost(RLIMIT_FSIZE, policy.file_size_limit, policy.file_size_limit)};
  int error = SetLimits(limits, std::size(limits));
  report->push_back(Make("rlimits", error == 0,
                         error == 0
                             ? "no core dumps; files up to " + std::to_string(policy.file_size_limit >> 20) + " MiB"
                             : std::strerror(error)));
  if (policy.Skips("network_namespace")) {
    report->push_back(SkippedLayer("network_namespace"));
  } else {
    NetworkNamespace network;
    Protection p = network.Describe(network.Enter());
    if (!p.active) p.detail += "; seccomp and Landlock still block sockets";
    report->push_back(p);
  }
  // A worker that keeps root (the profiled one, where only administrators read the counters) is let
  // open route netlink and internet sockets; without these two it cannot use them to change the
  // host's network. Dropped here, while the process has one thread, so that CUDA's threads, which
  // a submission could run code on through a signal handler, never hold them either.
  if (::geteuid() == 0) {
    static constexpr int kNetwork[] = {CAP_NET_ADMIN, CAP_NET_RAW};
    report->push_back(policy.Skips("network_capabilities")
                          ? SkippedLayer("network_capabilities")
                          : DescribeNetworkCapabilities(DropCapabilities(kNetwork, std::size(kNetwork))));
  }
  if (!policy.scratch_dir.empty() && ::chdir(policy.scratch_dir.c_str()) != 0)
    report->push_back(Make("scratch", false, "chdir " + policy.scratch_dir + ": " + std::strerror(errno)));
}

void ApplyLate(const SandboxPolicy& policy, SandboxReport* report) {
  if (!policy.enabled) return;
  auto layer = [&](const std::string& name, const std::function<Protection()>& apply) {
    report->push_back(policy.Skips(name) ? SkippedLayer(name) : apply());
  };
  // First: reading /proc/self/maps needs nothing the later layers take away.
  layer("code_seal", SealCode);
  layer("unprivileged", [] { return DescribePrivileges(DropRoot()); });
  layer("no_new_privs", [] { return DescribeNoNewPrivs(SetNoNewPrivs()); });
  layer("landlock", [&] { return ApplyLandlock(policy); });
  layer("seccomp", [&] { return ApplySeccomp(policy); });
}

void ApplyAfterLoad(const SandboxPolicy& policy, SandboxReport* report) {
  if (!policy.enabled) return;
  report->push_back(policy.Skips("no_new_code") ? SkippedLayer("no_new_code") : ApplyNoNewCode());
}

Json SandboxPolicyToJson(const SandboxPolicy& p) {
  return {{"enabled", p.enabled},
          {"scratch_dir", p.scratch_dir},
          {"read_paths", p.read_paths},
          {"file_size_limit", p.file_size_limit},
          {"skip", p.skip}};
}

SandboxPolicy SandboxPolicyFromJson(const Json& j) {
  SandboxPolicy p;
  p.enabled = j.value("enabled", true);
  p.scratch_dir = j.value("scratch_dir", "");
  p.read_paths = j.value("read_paths", std::vector<std::string>{});
  p.file_size_limit = j.value("file_size_limit", p.file_size_limit);
  p.skip = j.value("skip", std::vector<std::string>{});
  return p;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/sandbox/sandbox.h"

#include <fcntl.h>
#include <grp.h>
#include <linux/landlock.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>

#ifdef JUDGE_HAVE_SECCOMP
#include <seccomp.h>
#endif

namespace judge {
namespace {

Protection Make(const std::string& name, bool active, const std::string& detail) { return {name, active, detail}; }

std::string Errno() { return std::strerror(errno); }

// ---- Landlock (raw system calls: glibc has no wrappers) -----------------------------------------
// The kernel ABI is stable; older userspace headers (Debian 12 has 6.1's) lack the newer parts.
constexpr uint64_t kFsTruncate = 1ULL << 14;        // ABI 3
constexpr uint64_t kNetBindTcp = 1ULL << 0;         // ABI 4
constexpr uint64_t kNetConnectTcp = 1ULL << 1;      // ABI 4
constexpr uint64_t kScopeAbstractUnix = 1ULL << 0;  // ABI 6
constexpr uint64_t kScopeSignal = 1ULL << 1;        // ABI 6

struct RulesetAttr {  // struct landlock_ruleset_attr as of ABI 6
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

long LandlockAbi() {
  long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : abi;
}

uint64_t HandledFs(long abi) {
  uint64_t all = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
                 LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                 LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                 LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                 LANDLOCK_ACCESS_FS_MAKE_SYM;
  if (abi >= 2) all |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) all |= kFsTruncate;
  // IOCTL_DEV (ABI 5) is deliberately not handled: CUDA drives the GPU through ioctls on /dev.
  return all;
}

constexpr uint64_t kReadOnly = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr uint64_t kFileRights =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE | kFsTruncate;

bool AllowPath(int ruleset, const std::string& path, uint64_t access, uint64_t handled) {
  int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  fstat(fd, &st);
  landlock_path_beneath_attr attr{};
  attr.allowed_access = access & handled;
  if (!S_ISDIR(st.st_mode)) attr.allowed_access &= kFileRights;  // files take only file rights
  attr.parent_fd = fd;
  long rc = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &attr, 0);
  ::close(fd);
  return rc == 0;
}

Protection ApplyLandlock(const SandboxPolicy& policy) {
  long abi = LandlockAbi();
  if (abi == 0)
    return Make("landlock", false,
                "not supported by this kernel (or disabled): files outside the scratch folder stay readable");
  RulesetAttr attr{};
  attr.handled_access_fs = HandledFs(abi);
  if (abi >= 4) attr.handled_access_net = kNetBindTcp | kNetConnectTcp;
  // Scoping keeps the worker from signalling processes outside its sandbox (the judge).
  if (abi >= 6) attr.scoped = kScopeAbstractUnix | kScopeSignal;
  size_t size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8;
  int ruleset = int(syscall(SYS_landlock_create_ruleset, &attr, size, 0));
  if (ruleset < 0) return Make("landlock", false, "landlock_create_ruleset: " + Errno());
  std::vector<std::string> read = SystemReadPaths();
  read.insert(read.end(), policy.read_paths.begin(), policy.read_paths.end());
  for (const auto& p : read) AllowPath(ruleset, p, kReadOnly, attr.handled_access_fs);
  uint64_t dev = kReadOnly | LANDLOCK_ACCESS_FS_WRITE_FILE;
  AllowPath(ruleset, "/dev", dev, attr.handled_access_fs);
  if (!policy.scratch_dir.empty())
    AllowPath(ruleset, policy.scratch_dir, attr.handled_access_fs, attr.handled_access_fs);
  long rc = syscall(SYS_landlock_restrict_self, ruleset, 0);
  ::close(ruleset);
  if (rc != 0) return Make("landlock", false, "landlock_restrict_self: " + Errno());
  std::string net = abi >= 4 ? ", no TCP bind/connect" : "";
  return Make("landlock", true,
              "ABI " + std::to_string(abi) + ": read-only system folders, writable scratch folder only" + net);
}

// ---- seccomp -------------------------------------------------------------------------------------

Protection ApplySeccomp() {
#ifdef JUDGE_HAVE_SECCOMP
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return Make("seccomp", false, "seccomp_init failed");
  const uint32_t kill = SCMP_ACT_KILL_PROCESS;
  int rc = 0;
  for (int sc : {SCMP_SYS(execve),
                 SCMP_SYS(execveat),
                 SCMP_SYS(fork),
                 SCMP_SYS(vfork),
                 SCMP_SYS(ptrace),
                 SCMP_SYS(process_vm_readv),
                 SCMP_SYS(process_vm_writev),
                 SCMP_SYS(mount),
                 SCMP_SYS(umount2),
                 SCMP_SYS(pivot_root),
                 SCMP_SYS(chroot),
                 SCMP_SYS(setns),
                 SCMP_SYS(unshare),
                 SCMP_SYS(bpf),
                 SCMP_SYS(perf_event_open),
                 SCMP_SYS(init_module),
                 SCMP_SYS(finit_module),
                 SCMP_SYS(kexec_load),
                 SCMP_SYS(reboot),
                 SCMP_SYS(keyctl),
                 SCMP_SYS(add_key),
                 SCMP_SYS(request_key)})
    rc |= seccomp_rule_add(ctx, kill, sc, 0);
  // Threads are clone(CLONE_THREAD); a new process is a clone without it.
  rc |= seccomp_rule_add(ctx, kill, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
  // clone3 hides its flags in memory seccomp cannot read: ENOSYS makes glibc fall back to clone.
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  for (int domain : {AF_INET, AF_INET6, AF_PACKET, AF_NETLINK})
    rc |= seccomp_rule_add(ctx, kill, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, scmp_datum_t(domain)));
  // CUDA started its threads before this: the filter must cover them too.
  rc |= seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
  if (rc == 0) rc = seccomp_load(ctx);
  seccomp_release(ctx);
  if (rc != 0) return Make("seccomp", false, std::string("seccomp_load: ") + std::strerror(-rc));
  return Make("seccomp", true,
              "kills the worker on exec, fork, non-Unix sockets, ptrace, mount, bpf, module loading (all threads)");
#else
  return Make("seccomp", false, "the judge was built without libseccomp (install libseccomp-dev and rebuild)");
#endif
}

Protection DropPrivileges() {
  if (::geteuid() != 0) return Make("unprivileged", true, "runs as uid " + std::to_string(::geteuid()) + " (not root)");
  if (::setgroups(0, nullptr) != 0 || ::setresgid(kNobodyUid, kNobodyUid, kNobodyUid) != 0 ||
      ::setresuid(kNobodyUid, kNobodyUid, kNobodyUid) != 0)
    return Make("unprivileged", false, "could not drop root to nobody: " + Errno());
  return Make("unprivileged", true, "dropped root to nobody (65534)");
}

}  // namespace

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
  rlimit no_core{0, 0}, fsize{policy.file_size_limit, policy.file_size_limit};
  bool limits = ::setrlimit(RLIMIT_CORE, &no_core) == 0 && ::setrlimit(RLIMIT_FSIZE, &fsize) == 0;
  report->push_back(
      Make("rlimits", limits,
           limits ? "no core dumps; files up to " + std::to_string(policy.file_size_limit >> 20) + " MiB" : Errno()));
  if (policy.Skips("network_namespace"))
    report->push_back(Make("network_namespace", false, "skipped ($JUDGE_SANDBOX_SKIP)"));
  else if (::unshare(CLONE_NEWNET) == 0)
    report->push_back(Make("network_namespace", true, "private network namespace (loopback only, down)"));
  else
    report->push_back(
        Make("network_namespace", false,
             "unshare(CLONE_NEWNET): " + Errno() + " (needs root); seccomp and Landlock still block sockets"));
  if (!policy.scratch_dir.empty() && ::chdir(policy.scratch_dir.c_str()) != 0)
    report->push_back(Make("scratch", false, "chdir " + policy.scratch_dir + ": " + Errno()));
}

void ApplyLate(const SandboxPolicy& policy, SandboxReport* report) {
  if (!policy.enabled) return;
  auto layer = [&](const std::string& name, const std::function<Protection()>& apply) {
    report->push_back(policy.Skips(name) ? Make(name, false, "skipped ($JUDGE_SANDBOX_SKIP)") : apply());
  };
  layer("unprivileged", DropPrivileges);
  layer("no_new_privs", [] {
    bool nnp = ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
    return Make("no_new_privs", nnp, nnp ? "set" : Errno());
  });
  layer("landlock", [&] { return ApplyLandlock(policy); });
  layer("seccomp", ApplySeccomp);
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

Json SandboxReportToJson(const SandboxReport& r) {
  Json j = Json::array();
  for (const auto& p : r) j.push_back({{"name", p.name}, {"active", p.active}, {"detail", p.detail}});
  return j;
}

SandboxReport SandboxReportFromJson(const Json& j) {
  SandboxReport r;
  if (!j.is_array()) return r;
  for (const auto& p : j)
    if (p.is_object()) r.push_back({p.value("name", ""), p.value("active", false), p.value("detail", "")});
  return r;
}

}  // namespace judge

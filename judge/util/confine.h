// SPDX-License-Identifier: MIT
#pragma once
// The kernel mechanisms that confine untrusted work, shared by the worker's sandbox
// (judge/sandbox/) and the compiler's (judge/build/compile_sandbox.h). Each is prepared where
// allocating is safe and applied with plain system calls only: the compiler's sandbox is applied
// in a child between fork and exec of a judge that runs other threads, where only
// async-signal-safe calls are allowed (a lock another thread held at fork is never released).
// Every outcome says whether the layer took effect and, if not, why; nothing is silently assumed.
#include <sys/resource.h>
#include <sys/types.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "judge/util/json_fields.h"

namespace judge {

// The unprivileged user a root-run judge confines untrusted work as (worker and compiler; it owns
// their scratch folders).
inline constexpr unsigned kNobodyUid = 65534;

struct Protection {
  std::string name;  // "network_namespace", "landlock", "seccomp", ...
  bool active = false;
  std::string detail;  // how, or why not
};

using SandboxReport = std::vector<Protection>;

Json SandboxReportToJson(const SandboxReport& r);
SandboxReport SandboxReportFromJson(const Json& j);

// A layer left out on purpose: $JUDGE_SANDBOX_SKIP=seccomp,landlock names layers to leave out,
// for diagnosing a sandbox itself; a skipped layer is reported inactive like a missing one.
Protection SkippedLayer(const std::string& name);
std::vector<std::string> SandboxSkipFromEnvironment();
// The comma-separated layer names in $variable; nullopt when it is not set.
std::optional<std::vector<std::string>> LayersFromEnvironment(const char* variable);

// ---- rlimits ------------------------------------------------------------------------------------

struct ResourceLimit {
  int resource;  // RLIMIT_*
  rlim_t soft, hard;
};

// `resource` limited to `soft` and `hard`, or to the present hard limit where that is lower (an
// unprivileged process cannot raise it).
ResourceLimit LimitAtMost(int resource, rlim_t soft, rlim_t hard);
// 0, or the errno of the first limit that could not be set. Async-signal-safe.
int SetLimits(const ResourceLimit* limits, size_t count) noexcept;

// ---- network namespace ----------------------------------------------------------------------------

enum class NetworkIsolation : int { kNone, kDirect, kUserNamespace };

struct NetworkOutcome {
  NetworkIsolation way = NetworkIsolation::kNone;
  int direct_error = 0;  // of unshare(CLONE_NEWNET)
  int user_error = 0;    // of unshare(CLONE_NEWUSER | CLONE_NEWNET)
  // Inside a user namespace: writing its id maps (without them the process's ids read as nobody
  // inside; files it creates still belong to it), and dropping the capabilities it granted.
  int map_error = 0;
  int capabilities_error = 0;
};

// A private network namespace holds a loopback interface that is down and nothing else. Creating
// one needs CAP_SYS_ADMIN; without it (not root) a new user namespace grants it inside, so an
// unprivileged judge gets the same isolation where the kernel allows user namespaces.
class NetworkNamespace {
 public:
  NetworkNamespace();  // formats the id maps of the calling process (its ids mapped to themselves)
  // Enters the namespace: directly when permitted, else (not root) inside a new user namespace,
  // whose capabilities are then dropped again. Must be called while the process has one thread
  // (the kernel refuses a user namespace to a threaded process). Async-signal-safe.
  NetworkOutcome Enter() const noexcept;
  Protection Describe(const NetworkOutcome& outcome) const;

 private:
  uid_t uid_;
  char uid_map_[48] = {}, gid_map_[48] = {};
};

// ---- privileges -----------------------------------------------------------------------------------

struct PrivilegeOutcome {
  bool was_root = false;
  int error = 0;  // of dropping root, 0 when done (or not root)
  uid_t uid = 0;  // the uid the process runs as afterwards
};

// As root: drops every group and becomes nobody (real, effective and saved ids). A process that is
// not root stays as it is. Uses glibc's wrappers, which apply to every thread. Async-signal-safe
// in a child after fork (one thread).
PrivilegeOutcome DropRoot() noexcept;
Protection DescribePrivileges(const PrivilegeOutcome& outcome);

// Drops `caps` (CAP_* numbers) from the calling thread's bounding set and from its effective,
// permitted and inheritable sets: threads and processes it starts afterwards never hold them.
// Capabilities are per thread, so this must run while the process has one thread (before CUDA
// starts its own). 0 or an errno. Async-signal-safe.
int DropCapabilities(const int* caps, size_t count) noexcept;
// The layer that says so: "network_capabilities", for a process that kept root.
Protection DescribeNetworkCapabilities(int error);

// 0 or an errno. Set-uid programs started afterwards cannot gain privileges; Landlock needs it.
int SetNoNewPrivs() noexcept;
Protection DescribeNoNewPrivs(int error);

// ---- Landlock -------------------------------------------------------------------------------------

enum class PathAccess {
  kRead,            // read and execute files, list folders
  kReadWriteFiles,  // also write existing files (devices), nothing created or removed
  kFull,            // everything, the scratch folder
};

struct PathRule {
  std::string path;
  PathAccess access;
};

// A Landlock ruleset (raw system calls: glibc has no wrappers). The rules are bound to the files
// when prepared, before fork; restricting is one system call, in the child.
class LandlockRuleset {
 public:
  // Paths that do not exist are left out (not every system has /usr/lib32).
  explicit LandlockRuleset(const std::vector<PathRule>& rules);
  ~LandlockRuleset();
  LandlockRuleset(const LandlockRuleset&) = delete;
  LandlockRuleset& operator=(const LandlockRuleset&) = delete;

  // Restricts the calling thread and everything it starts to the rules; TCP bind/connect is
  // refused (ABI 4+) and signals and abstract sockets cannot leave the domain (ABI 6+). Needs
  // no_new_privs first. 0 or an errno. Async-signal-safe.
  int RestrictSelf() const noexcept;
  // `allowed` says what the rules allow ("read-only system folders, writable scratch folder only");
  // `without` what stays open when Landlock is missing.
  Protection Describe(int restrict_error, const std::string& allowed, const std::string& without) const;

 private:
  long abi_ = 0;
  int fd_ = -1;
  int create_error_ = 0;
};

}  // namespace judge

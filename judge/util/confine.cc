// SPDX-License-Identifier: MIT
#include "judge/util/confine.h"

#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace judge {
namespace {

std::string ErrorText(int error) { return std::strerror(error); }

// ---- Landlock ------------------------------------------------------------------------------------
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

uint64_t AccessBits(PathAccess access, uint64_t handled) {
  switch (access) {
    case PathAccess::kRead: return kReadOnly;
    case PathAccess::kReadWriteFiles: return kReadOnly | LANDLOCK_ACCESS_FS_WRITE_FILE | kFsTruncate;
    case PathAccess::kFull: return handled;
  }
  return 0;
}

void AllowPath(int ruleset, const std::string& path, uint64_t access, uint64_t handled) {
  int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st {};
  ::fstat(fd, &st);
  landlock_path_beneath_attr attr{};
  attr.allowed_access = access & handled;
  if (!S_ISDIR(st.st_mode)) attr.allowed_access &= kFileRights;  // files take only file rights
  attr.parent_fd = fd;
  (void)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &attr, 0);
  ::close(fd);
}

// ---- user namespace --------------------------------------------------------------------------------

bool WriteProcFile(const char* path, const char* text) noexcept {
  int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  size_t length = std::strlen(text);
  bool ok = ::write(fd, text, length) == ssize_t(length);
  int error = errno;
  ::close(fd);
  errno = error;
  return ok;
}

}  // namespace

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

Protection SkippedLayer(const std::string& name) { return {name, false, "skipped ($JUDGE_SANDBOX_SKIP)"}; }

std::optional<std::vector<std::string>> LayersFromEnvironment(const char* variable) {
  const char* list = std::getenv(variable);
  if (!list) return std::nullopt;
  std::vector<std::string> layers;
  std::stringstream ss(list);
  for (std::string layer; std::getline(ss, layer, ',');)
    if (!layer.empty()) layers.push_back(layer);
  return layers;
}

std::vector<std::string> SandboxSkipFromEnvironment() {
  return LayersFromEnvironment("JUDGE_SANDBOX_SKIP").value_or(std::vector<std::string>{});
}

ResourceLimit LimitAtMost(int resource, rlim_t soft, rlim_t hard) {
  rlimit present{};
  if (::getrlimit(resource, &present) == 0 && present.rlim_max != RLIM_INFINITY) {
    soft = std::min(soft, present.rlim_max);
    hard = std::min(hard, present.rlim_max);
  }
  return {resource, soft, hard};
}

int SetLimits(const ResourceLimit* limits, size_t count) noexcept {
  for (size_t i = 0; i < count; ++i) {
    rlimit value{limits[i].soft, limits[i].hard};
    if (::setrlimit(limits[i].resource, &value) != 0) return errno;
  }
  return 0;
}

NetworkNamespace::NetworkNamespace() : uid_(::geteuid()) {
  std::snprintf(uid_map_, sizeof uid_map_, "%u %u 1\n", unsigned(uid_), unsigned(uid_));
  std::snprintf(gid_map_, sizeof gid_map_, "%u %u 1\n", unsigned(::getegid()), unsigned(::getegid()));
}

NetworkOutcome NetworkNamespace::Enter() const noexcept {
  NetworkOutcome o;
  if (::unshare(CLONE_NEWNET) == 0) {
    o.way = NetworkIsolation::kDirect;
    return o;
  }
  o.direct_error = errno;
  // Root stays in the judge's user namespace: it becomes nobody next, who has no id in a new one.
  if (::geteuid() == 0) return o;
  if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
    o.user_error = errno;
    return o;
  }
  o.way = NetworkIsolation::kUserNamespace;
  // An unprivileged process may map only its own ids, and its gids only after giving up setgroups.
  if (!WriteProcFile("/proc/self/setgroups", "deny") || !WriteProcFile("/proc/self/uid_map", uid_map_) ||
      !WriteProcFile("/proc/self/gid_map", gid_map_))
    o.map_error = errno;
  // The new user namespace granted every capability inside it; nothing confined needs one.
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = {};
  if (syscall(SYS_capset, &header, none) != 0) o.capabilities_error = errno;
  return o;
}

Protection NetworkNamespace::Describe(const NetworkOutcome& o) const {
  const std::string kName = "network_namespace", kIsolated = "private network namespace (loopback only, down)";
  switch (o.way) {
    case NetworkIsolation::kDirect: return {kName, true, kIsolated};
    case NetworkIsolation::kUserNamespace: {
      std::string ids = o.map_error ? "its id maps refused (" + ErrorText(o.map_error) + "): ids read as nobody inside"
                                    : "uid " + std::to_string(uid_) + " mapped to itself";
      std::string capabilities = o.capabilities_error
                                     ? "its capabilities there kept (capset: " + ErrorText(o.capabilities_error) + ")"
                                     : "no capabilities";
      return {kName, true, kIsolated + " inside an unprivileged user namespace (" + ids + ", " + capabilities + ")"};
    }
    case NetworkIsolation::kNone: break;
  }
  std::string why = "unshare(CLONE_NEWNET): " + ErrorText(o.direct_error);
  if (uid_ == 0) return {kName, false, why + " (needs CAP_SYS_ADMIN, which this container may not grant)"};
  return {kName, false,
          why + "; an unprivileged user namespace was refused too (unshare(CLONE_NEWUSER): " + ErrorText(o.user_error) +
              "; user namespaces may be disabled by sysctl user.max_user_namespaces or "
              "kernel.unprivileged_userns_clone, or by an AppArmor or seccomp policy)"};
}

PrivilegeOutcome DropRoot() noexcept {
  PrivilegeOutcome o;
  o.was_root = ::geteuid() == 0;
  if (o.was_root && (::setgroups(0, nullptr) != 0 || ::setresgid(kNobodyUid, kNobodyUid, kNobodyUid) != 0 ||
                     ::setresuid(kNobodyUid, kNobodyUid, kNobodyUid) != 0))
    o.error = errno;
  o.uid = ::geteuid();
  return o;
}

Protection DescribePrivileges(const PrivilegeOutcome& o) {
  if (!o.was_root) return {"unprivileged", true, "runs as uid " + std::to_string(o.uid) + " (not root)"};
  if (o.error) return {"unprivileged", false, "could not drop root to nobody: " + ErrorText(o.error)};
  return {"unprivileged", true, "dropped root to nobody (" + std::to_string(kNobodyUid) + ")"};
}

int DropCapabilities(const int* caps, size_t count) noexcept {
  for (size_t i = 0; i < count; ++i)
    if (::prctl(PR_CAPBSET_DROP, caps[i], 0, 0, 0) != 0) return errno;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct sets[_LINUX_CAPABILITY_U32S_3] = {};
  if (syscall(SYS_capget, &header, sets) != 0) return errno;
  for (size_t i = 0; i < count; ++i) {
    const uint32_t bit = 1u << (caps[i] % 32);
    __user_cap_data_struct& d = sets[caps[i] / 32];
    d.effective &= ~bit;
    d.permitted &= ~bit;
    d.inheritable &= ~bit;
  }
  return syscall(SYS_capset, &header, sets) == 0 ? 0 : errno;
}

Protection DescribeNetworkCapabilities(int error) {
  if (error)
    return {"network_capabilities", false, "could not drop CAP_NET_ADMIN and CAP_NET_RAW: " + ErrorText(error)};
  return {
      "network_capabilities", true,
      "root without CAP_NET_ADMIN and CAP_NET_RAW (no routes, interfaces, firewall or raw packets), in every thread"};
}

int SetNoNewPrivs() noexcept { return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? 0 : errno; }

Protection DescribeNoNewPrivs(int error) { return {"no_new_privs", error == 0, error == 0 ? "set" : ErrorText(error)}; }

LandlockRuleset::LandlockRuleset(const std::vector<PathRule>& rules) : abi_(LandlockAbi()) {
  if (abi_ == 0) return;
  RulesetAttr attr{};
  attr.handled_access_fs = HandledFs(abi_);
  if (abi_ >= 4) attr.handled_access_net = kNetBindTcp | kNetConnectTcp;
  // Scoping keeps the confined process from signalling processes outside its sandbox (the judge).
  if (abi_ >= 6) attr.scoped = kScopeAbstractUnix | kScopeSignal;
  size_t size = abi_ >= 6 ? 24 : abi_ >= 4 ? 16 : 8;
  fd_ = int(syscall(SYS_landlock_create_ruleset, &attr, size, 0));
  if (fd_ < 0) {
    create_error_ = errno;
    return;
  }
  for (const auto& rule : rules)
    AllowPath(fd_, rule.path, AccessBits(rule.access, attr.handled_access_fs), attr.handled_access_fs);
}

LandlockRuleset::~LandlockRuleset() {
  if (fd_ >= 0) ::close(fd_);
}

int LandlockRuleset::RestrictSelf() const noexcept {
  if (abi_ == 0) return ENOSYS;
  if (fd_ < 0) return create_error_;
  return syscall(SYS_landlock_restrict_self, fd_, 0) == 0 ? 0 : errno;
}

Protection LandlockRuleset::Describe(int restrict_error, const std::string& allowed, const std::string& without) const {
  if (abi_ == 0) return {"landlock", false, "not supported by this kernel (or disabled): " + without};
  if (fd_ < 0) return {"landlock", false, "landlock_create_ruleset: " + ErrorText(create_error_) + ": " + without};
  if (restrict_error)
    return {"landlock", false, "landlock_restrict_self: " + ErrorText(restrict_error) + ": " + without};
  std::string net = abi_ >= 4 ? ", no TCP bind/connect" : "";
  return {"landlock", true, "ABI " + std::to_string(abi_) + ": " + allowed + net};
}

}  // namespace judge

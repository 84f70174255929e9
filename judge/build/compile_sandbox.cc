// SPDX-License-Identifier: MIT
#include "judge/build/compile_sandbox.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <new>
#include <sstream>

#include "judge/util/fs.h"

namespace judge {
namespace fs = std::filesystem;

namespace {

constexpr rlim_t kFileBytes = 256ull << 20;
// RLIMIT_NPROC counts every process of a uid: in a fresh user namespace only the sandbox's own; as
// nobody, every nobody-run worker and compile on the machine (CompilePool runs one compile per
// core), hence the headroom. It bounds a runaway toolchain, not a compile's needs (about 5).
constexpr rlim_t kProcesses = 1024;

// The toolchain's system folders, read-only. Not /usr/share or /usr/local/share (an installed
// judge keeps its testcases there), not /etc but the loader's cache and the time zone (__DATE__),
// not /proc, /home, /root, /tmp or the judge's repository.
const char* const kToolchainPaths[] = {
    "/usr/bin",           "/bin",           "/usr/lib",        "/usr/lib64",       "/usr/lib32",
    "/usr/libexec",       "/lib",           "/lib64",          "/lib32",           "/usr/include",
    "/usr/local/include", "/usr/local/lib", "/usr/local/cuda", "/etc/ld.so.cache", "/etc/localtime"};

// What a toolchain reads from the environment; the rest of the judge's (tokens, keys) stays out.
const char* const kToolchainVariables[] = {
    "PATH", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH",  "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN",
    "LANG", "LC_ALL",          "LC_CTYPE",  "LC_MESSAGES"};

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  for (std::string part; std::getline(ss, part, separator);)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

bool Contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// What the child did, in memory it shares with the judge: written between fork and exec, read once
// the compiler has ended.
struct ChildOutcome {
  bool ran = false;
  NetworkOutcome network;
  int limits_error = 0;
  bool processes_limited = false;
  PrivilegeOutcome privileges;
  int no_new_privs_error = 0;
  int landlock_error = 0;
};

class SharedOutcome {
 public:
  SharedOutcome() {
    void* page = ::mmap(nullptr, sizeof(ChildOutcome), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page != MAP_FAILED) outcome_ = new (page) ChildOutcome();
  }
  ~SharedOutcome() {
    if (outcome_) ::munmap(outcome_, sizeof(ChildOutcome));
  }
  SharedOutcome(const SharedOutcome&) = delete;
  SharedOutcome& operator=(const SharedOutcome&) = delete;
  ChildOutcome* get() const { return outcome_; }

 private:
  ChildOutcome* outcome_ = nullptr;
};

// A root judge's compiler runs as nobody, who must be able to walk down to the scratch folder:
// a $TMPDIR under /root would turn every compile into a baffling "cannot open source file".
Status ReachableByNobody(const std::string& scratch) {
  for (fs::path dir = fs::path(scratch).parent_path(); !dir.empty() && dir != dir.root_path();
       dir = dir.parent_path()) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0 && !(st.st_mode & S_IXOTH) && st.st_uid != kNobodyUid)
      return MakeError(ErrorCode::kIo, "the compile sandbox " + scratch + " is out of nobody's reach: " + dir.string() +
                                           " is not searchable by others; point $TMPDIR at a folder like /tmp");
  }
  return Status::Ok();
}

}  // namespace

struct CompileSandbox::Layers {
  explicit Layers(const std::vector<PathRule>& rules) : landlock(rules) {}
  bool skip_limits = false, skip_network = false, skip_unprivileged = false, skip_no_new_privs = false,
       skip_landlock = false;
  bool to_nobody = false;
  NetworkNamespace network;
  LandlockRuleset landlock;
  ResourceLimit limits[4] = {};  // the last, processes, only where the count is the sandbox's own
  rlim_t cpu_seconds = 0;
  SharedOutcome outcome;
  std::vector<std::string> env;
};

std::string CompileSandboxPolicy::CacheKeyPart() const {
  if (!enabled) return "unconfined";
  std::vector<std::string> left_out = skip;
  for (const auto& layer : SandboxSkipFromEnvironment()) left_out.push_back(layer);
  std::sort(left_out.begin(), left_out.end());
  std::string part = "confined";
  for (const auto& layer : left_out) part += " -" + layer;
  return part;
}

Expected<std::unique_ptr<CompileSandbox>> CompileSandbox::Create(const CompileSandboxPolicy& policy,
                                                                 const std::string& source,
                                                                 const std::vector<std::string>& read_paths,
                                                                 double timeout_seconds) {
  std::unique_ptr<CompileSandbox> box(new CompileSandbox());
  box->policy_ = policy;
  box->timeout_seconds_ = timeout_seconds;
  auto scratch = MakeTempDir(fs::temp_directory_path().string(), "gpu-judge-compile-");
  if (!scratch) return scratch.error();
  box->scratch_ = *scratch;  // removed by the destructor from here on
  if (!policy.enabled) {
    box->source_ = source;
    return box;
  }
  for (const auto& layer : SandboxSkipFromEnvironment()) box->policy_.skip.push_back(layer);
  const auto& skip = box->policy_.skip;

  // The submission alone, read-only: nothing next to it in its own folder can be included.
  const std::string src = box->scratch_ + "/src";
  if (::mkdir(src.c_str(), 0700) != 0)
    return MakeError(ErrorCode::kIo, "cannot create " + src + ": " + std::strerror(errno));
  box->source_ = src + "/" + Basename(source);
  std::error_code ec;
  fs::copy_file(source, box->source_, ec);
  if (ec) return MakeError(ErrorCode::kIo, "cannot copy " + source + " into the compile sandbox: " + ec.message());
  ::chmod(box->source_.c_str(), 0400);

  std::vector<PathRule> rules;
  for (const char* path : kToolchainPaths) rules.push_back({path, PathAccess::kRead});
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* dir = std::getenv(var); dir && *dir) rules.push_back({dir, PathAccess::kRead});
  if (const char* ld = std::getenv("LD_LIBRARY_PATH"))
    for (const auto& dir : Split(ld, ':')) rules.push_back({dir, PathAccess::kRead});
  for (const auto& path : read_paths) rules.push_back({path, PathAccess::kRead});
  rules.push_back({"/dev/null", PathAccess::kReadWriteFiles});
  rules.push_back({box->scratch_, PathAccess::kFull});
  auto layers = std::make_unique<Layers>(rules);
  if (!layers->outcome.get()) return MakeError(ErrorCode::kInternal, std::string("mmap: ") + std::strerror(errno));
  layers->skip_limits = Contains(skip, "rlimits");
  layers->skip_network = Contains(skip, "network_namespace");
  layers->skip_unprivileged = Contains(skip, "unprivileged");
  layers->skip_no_new_privs = Contains(skip, "no_new_privs");
  layers->skip_landlock = Contains(skip, "landlock");
  layers->to_nobody = ::geteuid() == 0 && !layers->skip_unprivileged;
  if (layers->to_nobody) {
    JUDGE_TRY(ReachableByNobody(box->scratch_));
    for (const std::string& path : {box->scratch_, src, box->source_})
      if (::chown(path.c_str(), kNobodyUid, kNobodyUid) != 0)
        return MakeError(ErrorCode::kIo, "cannot give " + path +
                                             " to nobody for the compile sandbox: " + std::strerror(errno) +
                                             " (or leave the layer out: JUDGE_SANDBOX_SKIP=unprivileged)");
  }
  // Per process: the wall-clock limit still ends the whole compile.
  layers->cpu_seconds = rlim_t(std::ceil(std::max(1.0, timeout_seconds)));
  layers->limits[0] = LimitAtMost(RLIMIT_CORE, 0, 0);
  layers->limits[1] = LimitAtMost(RLIMIT_FSIZE, kFileBytes, kFileBytes);
  layers->limits[2] = LimitAtMost(RLIMIT_CPU, layers->cpu_seconds, layers->cpu_seconds + 5);
  layers->limits[3] = LimitAtMost(RLIMIT_NPROC, kProcesses, kProcesses);
  layers->env = {"HOME=" + box->scratch_, "TMPDIR=" + box->scratch_};
  for (const char* var : kToolchainVariables)
    if (const char* value = std::getenv(var)) layers->env.push_back(std::string(var) + "=" + value);
  box->layers_ = std::move(layers);
  return box;
}

CompileSandbox::~CompileSandbox() {
  if (!scratch_.empty()) RemoveTree(scratch_);
}

ProcessOptions CompileSandbox::Options() const {
  ProcessOptions options;
  options.timeout_seconds = timeout_seconds_;
  options.output_cap_bytes = 256 * 1024;
  options.working_dir = scratch_;
  if (!layers_) return options;
  options.env = layers_->env;
  options.before_exec = [this](int) { return ConfineChild(); };
  return options;
}

// Between fork and exec: system calls only (see util/confine.h). The order matters: the network
// namespace first, so that a process limit set next counts inside its user namespace; then nobody,
// no_new_privs, and Landlock last, which needs no_new_privs.
int CompileSandbox::ConfineChild() const noexcept {
  const Layers& l = *layers_;
  ChildOutcome& o = *l.outcome.get();
  o = ChildOutcome{};
  o.ran = true;
  if (!l.skip_network) o.network = l.network.Enter();
  if (!l.skip_limits) {
    const bool own_count = o.network.way == NetworkIsolation::kUserNamespace || l.to_nobody;
    o.limits_error = SetLimits(l.limits, own_count ? 4 : 3);
    o.processes_limited = own_count && o.limits_error == 0;
  }
  if (!l.skip_unprivileged) o.privileges = DropRoot();
  if (!l.skip_no_new_privs) o.no_new_privs_error = SetNoNewPrivs();
  if (!l.skip_landlock) o.landlock_error = l.landlock.RestrictSelf();
  return 0;
}

SandboxReport CompileSandbox::Report() const {
  if (!layers_) return {{"sandbox", false, policy_.disabled_because}};
  const Layers& l = *layers_;
  const ChildOutcome& o = *l.outcome.get();
  if (!o.ran) return {{"sandbox", false, "not applied: the compiler was never started"}};
  SandboxReport report;
  auto layer = [&](const std::string& name, bool skipped, const auto& describe) {
    report.push_back(skipped ? SkippedLayer(name) : describe());
  };
  layer("rlimits", l.skip_limits, [&]() -> Protection {
    if (o.limits_error) return {"rlimits", false, std::string("setrlimit: ") + std::strerror(o.limits_error)};
    std::string processes = !o.processes_limited
                                ? "processes not limited (outside a user namespace the kernel counts every process of "
                                  "the user, the judge's included)"
                            : o.network.way == NetworkIsolation::kUserNamespace
                                ? "up to " + std::to_string(kProcesses) + " processes in its user namespace"
                                : "up to " + std::to_string(kProcesses) + " processes of nobody";
    return {"rlimits", true,
            "CPU " + std::to_string(l.cpu_seconds) + " s per process, files up to " + std::to_string(kFileBytes >> 20) +
                " MiB, no core dumps, " + processes};
  });
  layer("network_namespace", l.skip_network, [&] {
    Protection p = l.network.Describe(o.network);
    if (!p.active) p.detail += "; Landlock (ABI 4+) still refuses TCP";
    return p;
  });
  layer("unprivileged", l.skip_unprivileged, [&] { return DescribePrivileges(o.privileges); });
  layer("no_new_privs", l.skip_no_new_privs, [&] { return DescribeNoNewPrivs(o.no_new_privs_error); });
  layer("landlock", l.skip_landlock, [&] {
    return l.landlock.Describe(o.landlock_error, "read-only toolchain, writable scratch folder only",
                               "the compiler can read every file its user can");
  });
  return report;
}

}  // namespace judge

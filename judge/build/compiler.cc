// SPDX-License-Identifier: MIT
#include "judge/build/compiler.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <regex>

namespace judge {
namespace fs = std::filesystem;
namespace {

std::string LocateNvcc() {
  if (const char* env = std::getenv("NVCC"); env && *env) return env;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* home = std::getenv(var); home && *home) {
      std::string p = std::string(home) + "/bin/nvcc";
      if (::access(p.c_str(), X_OK) == 0) return p;
    }
  }
  if (auto p = FindOnPath("nvcc"); !p.empty()) return p;
  if (::access("/usr/local/cuda/bin/nvcc", X_OK) == 0) return "/usr/local/cuda/bin/nvcc";
  return "";
}

Expected<std::string> VersionBanner(const std::string& path, const std::string& what) {
  ProcessOptions options;
  options.timeout_seconds = 30;
  options.output_cap_bytes = 16 * 1024;
  auto r = RunProcess({path, "--version"}, options);
  if (!r) return r.error();
  if (!r->Succeeded()) return MakeError(ErrorCode::kSubprocess, what + " --version failed: " + r->output);
  return path + "\n" + r->output;
}

// Fills `cache` with the compiler's banner once; every cache key includes it.
Expected<std::string> CachedIdentity(std::string& cache, const std::string& path, const std::string& what,
                                     const std::string& missing) {
  if (path.empty()) return MakeError(ErrorCode::kSubprocess, missing);
  if (cache.empty()) {
    auto banner = VersionBanner(path, what);
    if (!banner) return banner.error();
    cache = *banner;
  }
  return cache;
}

Expected<ProcessResult> Invoke(Compiler& compiler, const std::string& path, const std::string& language,
                               const CompileJob& job) {
  auto id = compiler.Identity();
  if (!id) return id.error();
  std::vector<std::string> argv = {path};
  for (auto& f : compiler.Flags(job.target)) argv.push_back(f);
  argv.insert(argv.end(), {"-x", language, job.source, "-o", job.output});
  return RunProcess(argv, job.process);
}

// The installation a compiler belongs to: its bin folder's parent (/usr/local/cuda-13.0 for its
// nvcc). A compiler in a system prefix (/, /usr, /usr/local) gives just itself: the sandbox names
// those prefixes' folders one by one, as their share/ may hold an installed judge's testcases.
std::vector<std::string> InstallationOf(const std::string& program) {
  if (program.empty()) return {};
  std::error_code ec;
  fs::path real = fs::canonical(program, ec);
  if (ec) return {program};
  fs::path prefix = real.parent_path().parent_path();
  if (prefix.empty() || prefix == "/" || prefix == "/usr" || prefix == "/usr/local") return {program, real.string()};
  return {prefix.string()};
}

}  // namespace

std::string ArchForComputeCapability(int major, int minor) {
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

NvccCompiler::NvccCompiler(std::string nvcc_path, std::vector<std::string> extra_flags)
    : path_(nvcc_path.empty() ? LocateNvcc() : std::move(nvcc_path)), extra_flags_(std::move(extra_flags)) {}

Expected<std::string> NvccCompiler::Identity() {
  return CachedIdentity(identity_, path_, "nvcc",
                        "nvcc not found: install the CUDA Toolkit, or point $CUDA_HOME (or $NVCC) at it "
                        "(looked in $NVCC, $CUDA_HOME/bin, PATH and /usr/local/cuda/bin)");
}

std::string NvccCompiler::ReleaseVersion() {
  auto id = Identity();
  if (!id) return "unknown";
  std::smatch m;
  static const std::regex kRelease("release ([0-9]+\\.[0-9]+)");
  return std::regex_search(*id, m, kRelease) ? m[1].str() : "unknown";
}

std::vector<std::string> NvccCompiler::Flags(const std::string& target) const {
  std::string cc = target.substr(target.find('_') + 1);  // "sm_90" -> "90"
  // Machine code for the present GPU plus its PTX; -cudart shared so the submission and the
  // worker share one CUDA runtime (one error state, one set of pointers).
  std::vector<std::string> flags = {
      "-O3",     "-std=c++17", "-lineinfo",
      "-shared", "-Xcompiler", "-fPIC",
      "-cudart", "shared",     "--generate-code=arch=compute_" + cc + ",code=[compute_" + cc + ",sm_" + cc + "]"};
  flags.insert(flags.end(), extra_flags_.begin(), extra_flags_.end());
  return flags;
}

std::vector<std::string> NvccCompiler::ReadPaths() const {
  std::vector<std::string> paths = InstallationOf(path_);
  // nvcc runs the host compiler it finds: $NVCC_CCBIN (a compiler or its folder), else gcc on PATH.
  std::vector<std::string> hosts = {FindOnPath("gcc"), FindOnPath("g++")};
  if (const char* ccbin = std::getenv("NVCC_CCBIN"); ccbin && *ccbin) hosts.push_back(ccbin);
  for (const auto& host : hosts) {
    std::error_code ec;
    auto found = fs::is_directory(host, ec) ? std::vector<std::string>{host} : InstallationOf(host);
    paths.insert(paths.end(), found.begin(), found.end());
  }
  return paths;
}

Expected<ProcessResult> NvccCompiler::Compile(const CompileJob& job) { return Invoke(*this, path_, "cu", job); }

HostCompiler::HostCompiler(std::vector<std::string> extra_flags) : extra_flags_(std::move(extra_flags)) {
  const char* cxx = std::getenv("CXX");
  path_ = FindOnPath(cxx && *cxx ? cxx : "c++");
}

Expected<std::string> HostCompiler::Identity() {
  return CachedIdentity(identity_, path_, "c++", "no host C++ compiler found (set $CXX or install g++)");
}

std::vector<std::string> HostCompiler::Flags(const std::string&) const {
  std::vector<std::string> flags = {"-O2", "-std=c++17", "-fPIC", "-shared"};
  flags.insert(flags.end(), extra_flags_.begin(), extra_flags_.end());
  return flags;
}

std::vector<std::string> HostCompiler::ReadPaths() const {
  std::vector<std::string> paths = InstallationOf(path_);
  for (const auto& flag : extra_flags_)
    if (flag.rfind("-I", 0) == 0 && flag.size() > 2) paths.push_back(flag.substr(2));
  return paths;
}

Expected<ProcessResult> HostCompiler::Compile(const CompileJob& job) { return Invoke(*this, path_, "c++", job); }

}  // namespace judge

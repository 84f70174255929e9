// SPDX-License-Identifier: MIT
#include "judge/build/compiler.h"

#include <unistd.h>

#include <cstdlib>
#include <regex>

namespace judge {
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
                               const std::string& source, const std::string& output, const std::string& target,
                               double timeout_seconds) {
  auto id = compiler.Identity();
  if (!id) return id.error();
  std::vector<std::string> argv = {path};
  for (auto& f : compiler.Flags(target)) argv.push_back(f);
  argv.insert(argv.end(), {"-x", language, source, "-o", output});
  ProcessOptions options;
  options.timeout_seconds = timeout_seconds;
  options.output_cap_bytes = 256 * 1024;
  return RunProcess(argv, options);
}

}  // namespace

std::string ArchForComputeCapability(int major, int minor) {
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

NvccCompiler::NvccCompiler(std::string nvcc_path) : path_(nvcc_path.empty() ? LocateNvcc() : std::move(nvcc_path)) {}

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
  return {"-O3", "-std=c++17", "-lineinfo", "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared",
          "--generate-code=arch=compute_" + cc + ",code=[compute_" + cc + ",sm_" + cc + "]"};
}

Expected<ProcessResult> NvccCompiler::Compile(const std::string& source, const std::string& output,
                                              const std::string& target, double timeout_seconds) {
  return Invoke(*this, path_, "cu", source, output, target, timeout_seconds);
}

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

Expected<ProcessResult> HostCompiler::Compile(const std::string& source, const std::string& output,
                                              const std::string& target, double timeout_seconds) {
  return Invoke(*this, path_, "c++", source, output, target, timeout_seconds);
}

}  // namespace judge

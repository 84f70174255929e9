// SPDX-License-Identifier: MIT
#pragma once
// Content-addressed cache of compiled libraries (ccache's design): the key hashes a version
// prefix, the compiler's identity, the flags, the target and the source bytes, each tagged and
// delimited. Entries are published by rename, so concurrent judges never see half a library.
// Compile errors are cached too: regrading a broken submission is as instant as a good one. The
// compiler runs in its sandbox (compile_sandbox.h); the judge publishes what it wrote.
#include <string>
#include <vector>

#include "judge/build/compile_sandbox.h"
#include "judge/build/compiler.h"
#include "judge/util/expected.h"

namespace judge {

// Bump to invalidate every existing entry (e.g. when the flags' meaning changes).
// v2: cached logs name the source by a token.
// v3: compiled in the sandbox; logs quote no file but the submission (v2 logs may).
// v4: a compiler killed from outside is no longer cached (v3 may hold such a "compile error").
inline constexpr const char* kCacheKeyPrefix = "gpu-judge-compile-v4";

struct BuildOutcome {
  bool ok = false;
  std::string library_path;  // valid when ok
  std::string log;           // compiler diagnostics (warnings too)
  bool cache_hit = false;
  bool timed_out = false;
  double seconds = 0;          // of this call (a hit is ~0)
  double compile_seconds = 0;  // of the original compile
  std::string key;
  std::vector<std::string> flags;
  SandboxReport sandbox;  // the layers that confined the compile (of the original compile, on a hit)
};

// `confinement`: CompileSandboxPolicy::CacheKeyPart(), so that a library built with fewer layers
// (one that could have embedded a file the sandbox hides) is never served to a confined build.
std::string CompileCacheKey(const std::string& compiler_identity, const std::vector<std::string>& flags,
                            const std::string& target, const std::string& source, const std::string& confinement = "");

class CompileCache {
 public:
  // `dir` empty: caching disabled (every build compiles; its library goes to a folder of this
  // process's own, removed when it exits).
  explicit CompileCache(std::string dir, CompileSandboxPolicy sandbox = {});
  Expected<BuildOutcome> Build(Compiler& compiler, const std::string& source_path, const std::string& target,
                               double timeout_seconds);
  const std::string& dir() const { return dir_; }
  // $JUDGE_CACHE_DIR, else $XDG_CACHE_HOME/gpu-judge, else ~/.cache/gpu-judge.
  static std::string DefaultDir();

 private:
  Expected<BuildOutcome> Lookup(const std::string& key) const;
  Expected<BuildOutcome> CompileAndPublish(Compiler& compiler, const std::string& source_path,
                                           const std::string& target, double timeout_seconds, const std::string& key);
  std::string EntryBase(const std::string& key) const;
  std::string dir_;
  CompileSandboxPolicy sandbox_;
  bool cached_ = true;
};

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/build/compile_cache.h"

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "judge/build/compile_log.h"
#include "judge/util/fs.h"
#include "judge/util/json_fields.h"
#include "judge/util/sha256.h"

namespace judge {
namespace fs = std::filesystem;

namespace {

// Cached logs name the source by this token: the same bytes may come back under another path.
constexpr const char* kSourceToken = "@SOURCE@";

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

std::string CompileCacheKey(const std::string& compiler_identity, const std::vector<std::string>& flags,
                            const std::string& target, const std::string& source, const std::string& confinement) {
  Sha256 h;
  // Each input is tagged and length-delimited so no two different inputs can collide by concatenation.
  auto add = [&h](const std::string& tag, const std::string& value) {
    h.Update(tag + ":" + std::to_string(value.size()) + ":");
    h.Update(value);
  };
  add("prefix", kCacheKeyPrefix);
  add("compiler", compiler_identity);
  for (const auto& f : flags) add("flag", f);
  add("target", target);
  add("source", source);
  add("confinement", confinement);
  return h.HexDigest();
}

namespace {

// Signals only something outside the compile sandbox sends: the sandbox's own limits end the
// compiler by SIGXCPU or SIGXFSZ, and a crash of the compiler on a source is that source's.
bool KilledFromOutside(int sig) {
  return sig == SIGTERM || sig == SIGKILL || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT;
}

// Where a build without the cache publishes its library: a folder of this process's own, removed
// when it exits (the library must outlive the CompileCache that built it, and a scratch folder
// kept for it was left behind in /tmp by every --no-cache build). Only the process that made it
// removes it: a forked child that calls exit() runs the same destructors.
Expected<std::string> ProcessLibraryFolder() {
  struct Folder {
    Expected<std::string> path;
    pid_t owner;
    ~Folder() {
      if (path && ::getpid() == owner) RemoveTree(*path);
    }
  };
  static Folder folder{MakeTempDir(fs::temp_directory_path().string(), "gpu-judge-uncached-"), ::getpid()};
  return folder.path;
}

}  // namespace

CompileCache::CompileCache(std::string dir, CompileSandboxPolicy sandbox)
    : dir_(std::move(dir)), sandbox_(std::move(sandbox)), cached_(!dir_.empty()) {}

std::string CompileCache::DefaultDir() {
  if (const char* d = std::getenv("JUDGE_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/gpu-judge";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/gpu-judge";
  return "/tmp/gpu-judge-cache";
}

std::string CompileCache::EntryBase(const std::string& key) const {
  return (fs::path(dir_) / "v1" / key.substr(0, 2) / key).string();
}

Expected<BuildOutcome> CompileCache::Lookup(const std::string& key) const {
  std::string base = EntryBase(key);
  std::error_code ec;
  if (!fs::exists(base + ".json", ec)) return MakeError(ErrorCode::kIo, "miss");
  auto meta = ParseJsonFile(base + ".json");
  if (!meta || !meta->is_object()) return MakeError(ErrorCode::kIo, "corrupt cache entry");
  BuildOutcome out;
  out.ok = meta->value("ok", false);
  out.log = meta->value("log", "");
  out.compile_seconds = meta->value("compile_seconds", 0.0);
  out.sandbox = SandboxReportFromJson(meta->value("sandbox", Json::array()));
  out.cache_hit = true;
  out.key = key;
  if (out.ok) {
    out.library_path = base + ".so";
    if (!fs::exists(out.library_path, ec)) return MakeError(ErrorCode::kIo, "cache entry lost its library");
  }
  return out;
}

Expected<BuildOutcome> CompileCache::Build(Compiler& compiler, const std::string& source_path,
                                           const std::string& target, double timeout_seconds) {
  auto start = std::chrono::steady_clock::now();
  auto source = ReadFile(source_path);
  if (!source) return source.error();
  auto identity = compiler.Identity();
  if (!identity) return identity.error();
  std::string key = CompileCacheKey(*identity, compiler.Flags(target), target, *source, sandbox_.CacheKeyPart());
  Expected<BuildOutcome> out = !cached_ ? Expected<BuildOutcome>(MakeError(ErrorCode::kIo, "no cache")) : Lookup(key);
  if (out) out->log = ReplaceAll(out->log, kSourceToken, source_path);
  if (!out) out = CompileAndPublish(compiler, source_path, target, timeout_seconds, key);
  if (out) {
    out->flags = compiler.Flags(target);
    out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return out;
}

Expected<BuildOutcome> CompileCache::CompileAndPublish(Compiler& compiler, const std::string& source_path,
                                                       const std::string& target, double timeout_seconds,
                                                       const std::string& key) {
  auto box = CompileSandbox::Create(sandbox_, source_path, compiler.ReadPaths(), timeout_seconds);
  if (!box) return box.error();
  auto result = compiler.Compile(CompileJob{(*box)->source(), (*box)->output(), target, (*box)->Options()});
  if (!result) return result.error();
  BuildOutcome out;
  out.key = key;
  out.ok = result->Succeeded();
  out.timed_out = result->timed_out;
  out.sandbox = (*box)->Report();
  // The compiler saw the copy in the scratch folder; the person knows the file they submitted.
  std::string log =
      ReplaceAll(WithoutForeignSourceLines(result->output, (*box)->source()), (*box)->source(), source_path);
  out.log = log + (result->output_truncated ? "\n[compiler output truncated]\n" : "");
  if (result->timed_out)
    out.log += "\ncompilation exceeded " + std::to_string(int(timeout_seconds)) + " s and was stopped\n";
  // SIGXFSZ, SIGXCPU: a limit of the compile sandbox; without this line the log may be empty.
  else if (result->signal)
    out.log += "\nthe compiler was killed by " + DescribeSignal(result->signal) + "\n";
  out.compile_seconds = result->seconds;
  std::string root = dir_, base;
  if (cached_) {
    base = EntryBase(key);
  } else {
    auto folder = ProcessLibraryFolder();
    if (!folder) return folder.error();
    root = *folder;
    base = (fs::path(root) / key).string();
  }
  if (auto st = MakeDirs(fs::path(base).parent_path().string()); !st) return st.error();
  if (out.ok) {
    // Copied next to the entry first (the scratch folder may be on another file system), then renamed
    // into place: concurrent judges never see half a library.
    auto staging = MakeTempDir(root + "/tmp", "publish-");
    if (!staging) return staging.error();
    std::error_code ec;
    fs::copy_file((*box)->output(), *staging + "/lib.so", ec);
    Status published =
        ec ? Status(MakeError(ErrorCode::kIo, "cannot copy the library out of the compile sandbox: " + ec.message()))
           : RenameAtomic(*staging + "/lib.so", base + ".so");
    RemoveTree(*staging);
    if (!published) return published.error();
    out.library_path = base + ".so";
  }
  // A timeout says nothing certain about the source, nor does a compiler killed from outside the
  // sandbox (a cancelled job, the OOM killer): neither is cached.
  if (cached_ && !out.timed_out && !KilledFromOutside(result->signal)) {
    Json meta = {{"ok", out.ok},
                 {"log", ReplaceAll(out.log, source_path, kSourceToken)},
                 {"compile_seconds", out.compile_seconds},
                 {"compiler", compiler.Name()},
                 {"target", target},
                 {"source", source_path},
                 {"sandbox", SandboxReportToJson(out.sandbox)}};
    if (auto st = WriteFileAtomic(base + ".json", meta.dump(1)); !st) return st.error();
  }
  return out;
}

}  // namespace judge

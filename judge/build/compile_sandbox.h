// SPDX-License-Identifier: MIT
#pragma once
// Where and how a submission is compiled. A source file is hostile input to the compiler: it may
// `#include` any file the compiler can open (another student's source, a token, /etc/shadow when
// the judge is root) and the diagnostics would quote it, or `.incbin` it into the library. So the
// submission is copied alone into a private scratch folder, the compiler's only writable place,
// and the compiler runs confined like the worker (util/confine.h): a private network namespace
// (without root, inside an unprivileged user namespace), rlimits (CPU time, file size, processes,
// no core dumps), nobody when the judge is root, no_new_privs, and Landlock: the toolchain (nvcc's
// CUDA folder, the host compiler, system libraries and the few /etc files they need) read-only,
// nothing else readable. No seccomp: nvcc runs cicc, ptxas and gcc, so fork and exec must stay
// allowed, and no submission code runs during a compile. The judge, outside the sandbox, publishes
// the library into the compile cache.
#include <memory>
#include <string>
#include <vector>

#include "judge/util/confine.h"
#include "judge/util/expected.h"
#include "judge/util/subprocess.h"

namespace judge {

struct CompileSandboxPolicy {
  CompileSandboxPolicy() = default;
  explicit CompileSandboxPolicy(bool on, std::string why_off = "disabled with --no-sandbox")
      : enabled(on), disabled_because(std::move(why_off)) {}
  bool enabled = true;
  std::string disabled_because = "disabled with --no-sandbox";
  // Layers to leave out (rlimits, network_namespace, unprivileged, no_new_privs, landlock), for
  // diagnosing the sandbox itself; $JUDGE_SANDBOX_SKIP is added to these.
  std::vector<std::string> skip;
  // Part of every cache key: a library built with fewer layers is never served to a confined build.
  std::string CacheKeyPart() const;
};

// One compile's scratch folder and confinement (removes the folder when destroyed).
class CompileSandbox {
 public:
  // Makes the scratch folder (owned by nobody when a root judge drops to it), copies `source` into
  // it alone and prepares every layer. Disabled, the compiler reads `source` where it lies and
  // runs as the judge (the problem's trusted reference, --no-sandbox). `read_paths`: the files and
  // folders the compiler reads beyond the system's (Compiler::ReadPaths).
  static Expected<std::unique_ptr<CompileSandbox>> Create(const CompileSandboxPolicy& policy, const std::string& source,
                                                          const std::vector<std::string>& read_paths,
                                                          double timeout_seconds);
  ~CompileSandbox();
  CompileSandbox(const CompileSandbox&) = delete;
  CompileSandbox& operator=(const CompileSandbox&) = delete;

  const std::string& scratch() const { return scratch_; }
  const std::string& source() const { return source_; }  // what the compiler reads
  std::string output() const { return scratch_ + "/lib.so"; }
  // How to run the compiler inside: the wall-clock limit, the scratch folder as working, home and
  // temp folder, only the environment variables a toolchain needs (the judge's may hold secrets),
  // and the layers, applied between fork and exec.
  ProcessOptions Options() const;
  // After the compiler ran: each layer, as it took effect or why not.
  SandboxReport Report() const;

 private:
  struct Layers;
  CompileSandbox() = default;
  int ConfineChild() const noexcept;

  CompileSandboxPolicy policy_;
  std::string scratch_, source_;
  double timeout_seconds_ = 0;
  std::unique_ptr<Layers> layers_;
};

}  // namespace judge

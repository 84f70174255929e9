// SPDX-License-Identifier: MIT
#pragma once
// Confines the worker before any submission code runs, with the kernel's own mechanisms:
//   early (before CUDA starts):  a private network namespace (without root, inside an
//                                unprivileged user namespace), rlimits (no core
//                                dumps, bounded file size), the scratch folder as working dir;
//   late (after the CUDA context exists, before dlopen runs the submission's constructors):
//                                code sealed (code_seal.h), drop to nobody when root,
//                                no_new_privs, Landlock (read only
//                                system folders, write only the scratch folder; no TCP), seccomp
//                                (no exec, fork, non-Unix sockets, ptrace, mounts; kills the
//                                process on an attempt, seen by the judge as SIGSYS; memory
//                                both writable and executable is refused);
//   after load (dlopen returned):  no memory may become executable any more.
// A mechanism the kernel or build lacks is reported inactive, never silently assumed.
#include <string>
#include <string_view>
#include <vector>

#include "judge/util/confine.h"
#include "judge/util/json_fields.h"

namespace judge {

struct SandboxPolicy {
  bool enabled = true;
  std::string scratch_dir;                 // the only writable folder
  std::vector<std::string> read_paths;     // extra readable files/folders (the submission's library)
  uint64_t file_size_limit = 64ull << 20;  // RLIMIT_FSIZE
  // Layers to leave out, for diagnosing the sandbox itself ($JUDGE_SANDBOX_SKIP=seccomp,landlock);
  // a skipped layer is reported inactive like a missing one.
  std::vector<std::string> skip;
  bool Skips(const std::string& layer) const;
};

void ApplyEarly(const SandboxPolicy& policy, SandboxReport* report);
void ApplyLate(const SandboxPolicy& policy, SandboxReport* report);
// After dlopen returned (the submission's constructors have run): no memory becomes executable.
void ApplyAfterLoad(const SandboxPolicy& policy, SandboxReport* report);

Json SandboxPolicyToJson(const SandboxPolicy& p);
SandboxPolicy SandboxPolicyFromJson(const Json& j);

// Parts of the seccomp layer a skip list may name on their own: internet sockets (AF_INET, AF_INET6)
// or netlink sockets let through while the rest of the filter holds. Nsight Compute's library in
// the profiled worker opens both (run/profile_run.h); without the network namespace an internet
// socket reaches the network, a netlink one reads the host's interfaces.
inline constexpr std::string_view kInternetSocketsRule = "internet_sockets";
inline constexpr std::string_view kNetlinkSocketsRule = "netlink_sockets";

// What a worker the seccomp layer stopped left on its stderr: "judge sandbox: stopped the forbidden
// system call NAME" (a socket's with its kind: "socket (internet)", "socket (netlink, protocol 0)"), the last such line
// of `stderr_text`, or empty.
inline constexpr std::string_view kStoppedCallLine = "judge sandbox: stopped the forbidden system call ";
std::string StoppedCallLine(std::string_view stderr_text);

// Folders every CUDA program may need to read after start-up.
std::vector<std::string> SystemReadPaths();

}  // namespace judge

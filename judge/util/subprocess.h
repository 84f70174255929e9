// SPDX-License-Identifier: MIT
#pragma once
// Runs a helper program (nvcc, c++) to completion with a wall-clock limit and a cap on what it
// prints. Not for the submission's worker: that needs a conversation, see supervise/.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "judge/util/expected.h"

namespace judge {

struct ProcessResult {
  int exit_code = -1;      // valid when !signaled
  int signal = 0;          // the terminating signal, 0 if it exited
  bool timed_out = false;  // killed by us at the deadline
  std::string output;      // stdout and stderr interleaved, capped; text (util/utf8's rule: the
                           // compile cache keeps it in JSON, and the cap may cut a character)
  bool output_truncated = false;
  double seconds = 0;
  bool Succeeded() const { return !timed_out && signal == 0 && exit_code == 0; }
};

struct ProcessOptions {
  double timeout_seconds = 120;
  size_t output_cap_bytes = 256 * 1024;
  std::string working_dir;  // empty: inherit
  // The program's whole environment ("NAME=value"); unset: the judge's.
  std::optional<std::vector<std::string>> env;
  // Runs in the child after fork, before exec, to confine it (util/confine.h). The judge runs other
  // threads, so it may make async-signal-safe calls only. A non-zero result ends the child with that
  // exit status instead of running the program (say why on `output_fd` first).
  std::function<int(int output_fd)> before_exec;
};

// Fails only when the program cannot be started; a program that fails is a ProcessResult.
Expected<ProcessResult> RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options);

// Starts `child(arg)` in a new process that shares the caller's memory until it execs or exits (as
// vfork does, so no page table is copied), and returns its pid once it has (SIGCHLD is its exit
// signal). For a judge holding GBs, fork() copied the page tables under the address space's write
// lock, stalling every other thread's page faults, and then cost a fault on every page it wrote
// next: after one fork of an 8 GB process, rewriting 1 GB of it took 3.4-4.3 s instead of 0.05 s
// (this machine, 2026-12-04). `child` runs on a stack of its own with every signal handler reset to
// the default and the caller's signal mask; it may make system calls only (no allocation, no
// locks, no stdio), and must end in execve or _exit. Not for a child that unshares namespaces (the
// kernel refuses that to a process sharing its memory): the compile sandbox forks.
Expected<pid_t> StartSharingMemory(int (*child)(void*), void* arg);

// "SIGSEGV (segmentation fault)"
std::string DescribeSignal(int sig);

// Looks a program up on PATH; empty if absent.
std::string FindOnPath(const std::string& name);

}  // namespace judge

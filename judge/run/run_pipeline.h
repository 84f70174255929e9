// SPDX-License-Identifier: MIT
#pragma once
// `judge run`: problem -> testcases -> device probe -> build -> entry-point check -> reference ->
// cases through the supervisor -> RunReport. Errors that stop the run before anything is judged
// (bad input, no GPU) come back as Error; everything else is in the report.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "judge/build/compile_pool.h"
#include "judge/check/case_preparation.h"
#include "judge/core/run_report.h"
#include "judge/problem/problem.h"
#include "judge/supervise/gpu_turns.h"
#include "judge/supervise/worker_ahead.h"
#include "judge/util/expected.h"

namespace judge {

class ClockCalibrations;  // run/case_runner.h

struct DeviceFacts {
  DeviceInfo info;
  Ceilings ceilings;  // measured by the judge's kernels, or cached (zeros: not measured)
  std::string ceiling_source;
  std::string warning;  // why the ceiling is missing, for every report
};

struct RunOptions {
  std::string submission;
  std::string problem = "reduction";
  std::string root;                       // holds problems/ and testcases/
  std::string testcases_dir;              // default: <root>/testcases/<problem>
  std::vector<std::string> case_filters;  // substrings of case names or kinds; empty = all
  int64_t max_case_bytes = 0;             // > 0: only cases that move at most this many bytes
  DeviceKind device = DeviceKind::kCuda;  // kHost: the test double
  std::string arch;                       // e.g. "sm_90"; default: the present GPU's
  std::string cache_dir;                  // empty: no cache
  std::string worker_program;             // the judge executable
  double call_timeout_seconds = 0;        // > 0 overrides the problem's per-call limit
  double memory_limit_mb = 0;             // > 0 overrides the problem's host memory limit
  bool sandbox = true;
  bool hot = false;                 // --hot: performance cases also timed without the L2 flush
  std::string flush_mode = "read";  // --flush: read | write
  int timing_processes = 1;         // --timing-processes: worker processes whose samples a performance case pools
  std::vector<std::string> sanitize_tools;  // --sanitize: compute-sanitizer tools to run         // --no-sandbox turns
                                            // the worker's confinement off (debugging only)
  // --profile / `judge profile`: after judging, one call of a performance case again under Nsight
  // Compute (run/profile_run.h): `profile_case`, else the first accepted official one.
  bool profile = false;
  std::string profile_case;
  uint64_t run_secret = 0;
  // Shared by the runs of one ladder or comparison (same cases, same secret); null for one run.
  std::shared_ptr<ExpectedMemo> memo;                     // seeds the hidden input variants; never sent to the worker
  std::shared_ptr<WorkerAhead> workers_ahead;             // starts the next run's worker early; null: in line
  std::shared_ptr<GpuTurns> gpu_turns;                    // runs judged side by side take turns; null: one at a time
  std::shared_ptr<ClockCalibrations> clock_calibrations;  // the judge's clock per case, measured once
  // Known from an earlier run of the same command: the device probe (a CUDA context) and the
  // ceiling lookup are skipped.
  std::shared_ptr<const DeviceFacts> known_device;
  int gpu = -1;  // >= 0: the worker sees only this GPU (of those visible to the judge)
  const std::atomic<bool>* interrupted = nullptr;
  std::function<void(size_t index, size_t total, const CaseResult&)> on_case_done;
  std::function<void(const std::string&)> on_stage;  // "compiling", ...
};

// Finds the folder holding problems/ and testcases/: $JUDGE_ROOT, then upwards from the current
// directory, then upwards from the executable, then the installed data folder.
std::string LocateRoot(const std::string& executable);

Expected<RunReport> RunSubmission(const RunOptions& options);

// The cases of `all` a run with `options` judges (--cases, max_case_bytes; stress ones only when
// named), before the hidden twins are added.
std::vector<Case> CasesOfRun(const RunOptions& options, const Problem& problem, std::vector<Case> all);

// Prepares every case a run with `options` judges (its input variants and their expected outputs,
// into options.memo) on `workers` threads, in the order a run reaches them, until done or `stop`.
// Runs judged side by side start together, and without it each waits at every large case for its
// reference while the GPU idles. Failures are left for the runs to report.
void WarmExpectedMemo(const RunOptions& options, unsigned workers, const std::atomic<bool>& stop);

// The device probe and the ceiling lookup of a run, done once for many runs (batch, ladder).
Expected<std::shared_ptr<const DeviceFacts>> ProbeDeviceFacts(const RunOptions& options);

// The compile target for the device in `facts` (or options.arch).
std::string CompileTarget(const RunOptions& options, const DeviceFacts* facts);

// Compiles `files` into options.cache_dir on `jobs` threads, in order (batch, ladder); wait for
// files[i] before grading it. Without a cache nothing could be kept: the jobs do nothing.
Expected<std::unique_ptr<CompilePool>> CompileAhead(const RunOptions& options, const std::vector<std::string>& files,
                                                    const std::string& target, int jobs);

// `judge build`: compile only (used by CI to compile every sample without a GPU).
struct BuildOnlyResult {
  bool ok = false;
  std::string library_path;
  std::string log;
  bool cache_hit = false;
  SandboxReport sandbox;  // what confined the compiler
};
Expected<BuildOnlyResult> BuildOnly(const std::string& source, DeviceKind device, const std::string& arch,
                                    const std::string& cache_dir, const Problem& problem, bool sandbox = true);

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// The in-memory result of one `judge run`. Every output format is rendered from this, never by
// re-parsing another format's text.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "judge/check/tolerance_check.h"
#include "judge/core/verdict.h"
#include "judge/device/device.h"
#include "judge/measure/roofline.h"
#include "judge/measure/sample_stats.h"
#include "judge/measure/timing_audit.h"
#include "judge/profile/profile.h"
#include "judge/sandbox/sandbox.h"
#include "judge/testcase/testcase.h"

namespace judge {

inline constexpr const char* kJudgeVersion = "0.1.0";
inline constexpr int kReportSchemaVersion = 1;

// One timed call as the statistics saw it, kept so anyone can redo them (nvbench keeps its samples too).
// A sample's variant when the call's inputs were generated from seeds of its own (fresh).
inline constexpr int kFreshSample = -1;

struct TimedSample {
  double ms = 0;         // net of the empty window
  int variant = 0;       // which input variant the call read, or kFreshSample
  double clock_mhz = 0;  // SM clock over the call (0: unknown)
  int process = 0;       // which worker process (CUDA context) made it, with --timing-processes
};

// A performance case's twin at a size drawn for one run only (run/hidden_size.h) is named after
// its official case plus this suffix.
inline constexpr std::string_view kHiddenSuffix = "_unpredictable_size";
// The official case's name for a twin's name; nullopt for any other name.
std::optional<std::string> OfficialNameOfTwin(std::string_view name);

struct CaseResult {
  std::string name;
  CaseKind kind = CaseKind::kFunctional;
  std::string note;
  ScalarValues scalars;
  Verdict verdict = Verdict::kNotRun;
  std::string detail;                      // why, for anything but a plain AC
  std::optional<CheckResult> check;        // the first (untimed) call's output
  std::optional<CheckResult> timed_check;  // the last timed call's output
  SampleStats event;                       // device time per timed call, net of the empty window, ms
  double raw_event_median_ms = 0;          // the events' own median, before that correction
  double window_correction_ms = 0;         // the empty event window subtracted from every call
  SampleStats wall;                        // host wall time per timed call incl. sync, ms
  TimingAudit audit;                       // events vs wall clock
  double overhead_event_ms = 0;            // an empty event window after the same flush: the judge's own share
  SampleStats hot;                         // --hot: device time without the L2 flush (cache warm), ms
  double sm_clock_mhz = 0;                 // median SM clock over the timed calls (0: unknown)
  int throttled_discarded = 0;             // timed calls dropped because the SM clock was throttled
  std::vector<TimedSample> samples;        // the calls behind `event`, in the order they ran
  int warmup_calls = 0;
  int input_variants = 1;             // differently seeded inputs rotated across calls
  int calls_checked = 0;              // outputs checked against the reference
  std::optional<bool> deterministic;  // bitwise-identical outputs for the same input (info)
  std::vector<std::string> flags;     // suspicious timing etc.: a flagged result is not ranked
  // The judge's own clock on the fastest fresh timed call, net of its share: the fastest no-op
  // call (calibration), with the no-op calls' IQR (spread); a note when it did not check the case.
  struct JudgeClockFigures {
    double ms = 0, calibration_ms = 0, spread_ms = 0;
    std::string note;
  } judge_clock;
  Work work;                      // what a call must move and compute (problem.json's roofline)
  int64_t min_bytes = 0;          // bytes the problem must move: work's read and written
  double gbps = 0;                // min_bytes / honest median time
  double gflops = 0;              // work's flops / honest median time
  Bound bound = Bound::kUnknown;  // the ceiling that binds this work on this GPU
  double roofline_pct = 0;        // that ceiling's least time over the honest median, % (0: unknown)
  double seconds = 0;             // wall time the judge spent on the case
  double prepare_seconds = 0;     // of which: waiting for inputs and expected outputs (judge; made
                                  // while the case before ran, so mostly 0)
  double setup_seconds = 0;       // of which: the worker's allocation, generation, upload
  std::string worker_stdout, worker_stderr;
  bool output_truncated = false;

  // The case's time, the one figure every report, leaderboard, ladder and grade uses: the median
  // of the events net of the empty window, or of the wall clock when work escaped the events.
  double FigureMs() const { return audit.honest_median_ms; }
  // Whether that figure may rank against others: accepted, timed, and nothing suspicious flagged.
  bool Ranks() const { return verdict == Verdict::kAccepted && FigureMs() > 0 && flags.empty(); }
  bool IsHiddenTwin() const { return OfficialNameOfTwin(name).has_value(); }
};

// One compute-sanitizer tool's pass over the small cases (`--sanitize`).
struct SanitizerResult {
  std::string tool;
  bool ran = false;
  int errors = 0;
  int warnings = 0;      // racecheck's hazards of warning severity
  std::string summary;   // the tool's own summary line, or why it did not run
  std::string findings;  // the first findings, as the tool printed them
  double seconds = 0;
  int cases = 0;
};

struct BuildInfo {
  bool attempted = false;
  bool ok = false;
  bool prebuilt = false;  // a .so was given
  bool cache_hit = false;
  std::string compiler;  // "nvcc 13.0"
  std::string target;    // "sm_90"
  std::vector<std::string> flags;
  double seconds = 0;          // this run's build step
  double compile_seconds = 0;  // the original compile
  std::string log;
  std::string library_path;
  std::string cache_key;
  SandboxReport sandbox;  // what confined the compiler (on a cache hit: the original compile)
};

struct RunReport {
  std::string judge_version = kJudgeVersion;
  std::string started_at;  // ISO 8601, UTC
  double seconds = 0;
  std::string submission_path;
  std::string submission_sha256;
  std::string problem;
  Tolerance tolerance;
  std::optional<DeviceInfo> device;
  double ceiling_gbps = 0;          // measured read ceiling of this GPU (0: not measured)
  double copy_gbps = 0;             // measured copy ceiling (read + write), GB/s
  double fp32_gflops = 0;           // measured FP32 FMA ceiling, GFLOP/s
  std::string check;                // how outputs pass (CheckSpec::Describe)
  std::string ceiling_source;       // "measured" | "cached" | why it is missing
  std::string flush_mode = "read";  // how the L2 was evicted before cold calls: "read" | "write"
  BuildInfo build;
  std::vector<CaseResult> cases;
  Verdict verdict = Verdict::kNotRun;
  ExitCode exit_code = ExitCode::kInternalError;
  std::string message;        // a run-level explanation (CE log summary, IE cause, interruption)
  SandboxReport protections;  // what confined the worker that ran the submission
  std::vector<SanitizerResult> sanitizers;
  // `--profile` / `judge profile`: a case's solve() under Nsight Compute and its diagnosis;
  // information only, like the sanitizers (no verdict, time or rank comes from it).
  std::vector<profile::CaseProfile> profiles;
  std::vector<std::string> warnings;
  const CaseResult* PrimaryPerformanceCase() const;  // first performance case, if any
};

// Every string a report holds, each once: what a batch renames (the grading machine's path of a
// submission to its name) and what MakeTextValid repairs. A string field added to the report must
// be added here.
void ForEachText(RunReport& report, const std::function<void(std::string&)>& visit);
// Applies util/utf8's rule to every string of the report: called where a report is finished, so
// that every format renders it (a compiler log quoting a Latin-1 source line, a file name that is
// not UTF-8, a submission's bytes on stdout).
void MakeTextValid(RunReport& report);

}  // namespace judge

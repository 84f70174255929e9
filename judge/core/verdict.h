// SPDX-License-Identifier: MIT
#pragma once
// Verdicts and process exit codes. The numeric codes are part of the JSON report's contract:
// never renumber, only append.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace judge {

enum class Verdict : int {
  kAccepted = 0,      // AC
  kWrongAnswer = 1,   // WA
  kTimeLimit = 2,     // TLE
  kRuntimeError = 3,  // RE: signal, exit, CUDA error inside the submission
  kCompileError = 4,  // CE: nvcc failed, or no usable extern "C" solve
  kMemoryLimit = 5,   // MLE: host or device memory exhausted by the submission
  kOutputLimit = 6,   // OLE: stdout/stderr flood
  kMemoryViolation =
      7,               // MV: wrote past a buffer, modified its input, or read past its end (an unwritten output is WA)
  kNotRun = 8,         // NR: not run because the run was interrupted first
  kInternalError = 9,  // IE: the judge's own fault; never the submission's
};

std::string_view VerdictShort(Verdict v);  // "AC", "WA", ...
std::string_view VerdictLong(Verdict v);   // "accepted", "wrong answer", ...
std::optional<Verdict> VerdictFromShort(std::string_view s);

// The run's verdict is the most severe case verdict. Order (most severe first):
// IE > CE > TLE > MLE > OLE > MV > RE > WA > NR > AC. IE leads because a judge fault makes every
// other finding of the run untrustworthy.
int VerdictSeverity(Verdict v);
Verdict WorstVerdict(const std::vector<Verdict>& verdicts);

// Process exit codes of `judge run` (isolate's rule: the judge's own failure never looks like the
// submission's).
enum class ExitCode : int {
  kAccepted = 0,       // every case AC
  kRejected = 1,       // the submission failed (any verdict other than AC and IE)
  kUsage = 2,          // bad command line or input files: nothing was judged
  kNoDevice = 3,       // no usable GPU
  kInternalError = 4,  // the judge failed (IE in any case or a judge fault)
  // Part of what was asked could not be done, and the output says which part: `judge merge` with
  // submissions not graded (a cancelled or failed shard), `judge profile` without a usable profiler.
  kIncomplete = 5,
  kInterrupted = 130,  // SIGINT/SIGTERM: a partial report was still written
};

ExitCode ExitCodeForVerdict(Verdict run_verdict);

}  // namespace judge

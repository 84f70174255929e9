// SPDX-License-Identifier: MIT
#pragma once
// Where a case's verdict is decided: every rule that turns what a worker did into a verdict and
// the sentence that explains it, as pure functions (no process, no device, no clock). The case
// runner (judge/run/case_runner.h) gathers the facts and applies these; whose fault a failure is
// follows from where it happened:
//   nvcc, the entry-point check, dlopen or the library's constructors   CE (load) / RE (constructor crash)
//   the judge's own work before the first solve(): device, allocation    IE
//   anything from the first solve() on: signal, exit, CUDA error, hang   RE / TLE / MLE
//   outputs                                                              WA, or MV when memory rules broke
// The run-level verdict is core/verdict.h's WorstVerdict over the cases.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "judge/check/case_preparation.h"
#include "judge/check/tolerance_check.h"
#include "judge/core/verdict.h"
#include "judge/problem/problem.h"
#include "judge/protocol/messages.h"
#include "judge/supervise/worker_process.h"

namespace judge {

struct Failure {
  Verdict verdict = Verdict::kInternalError;
  std::string detail;
};

// The worker died, broke its channel, went over a limit or was interrupted; `when` says in which
// step ("during call 3 of solve()"). Not for kTimeout (see TimedOut) or kFrame. Before the
// submission is loaded (`submission_loaded` false) only the judge's code has run: IE, and a memory
// limit the worker itself cannot start under says so.
Failure WorkerEnded(const WorkerEvent& event, const std::string& when, const Limits& limits,
                    bool submission_loaded = true);
// No answer within a deadline: the judge's setup (IE) or a call of solve() (TLE, `call` 1-based).
Failure TimedOut(bool in_call, int call, double setup_limit_seconds, double call_limit_seconds);
// The worker reported a fault; `calls_done` calls of solve() had returned before it.
Failure Faulted(const FaultMessage& fault, int calls_done);
// The worker answered with a message that does not belong here.
Failure Unexpected(MessageKind got, const std::string& while_doing);
// A constructor crash or load failure repeats on every case: the wording says where it happened.
Failure WhileLoading(Failure failure);

// The verdict of a case whose calls all returned: every kept output checked against its input
// variant's expected outputs (first call, and the worst of the timed ones), and the memory rules.
struct OutputJudgement {
  Verdict verdict = Verdict::kAccepted;
  std::string detail;
  std::optional<CheckResult> check;        // the first (untimed) call
  std::optional<CheckResult> timed_check;  // the worst later call
  int calls_checked = 0;
  std::optional<bool> deterministic;  // the same input always gave bitwise the same output
  // A wrong first call without a memory violation: diagnostic reruns may say why (Explain* below).
  bool diagnose = false;
};
// How many of a case's fresh timed calls the reference checks (drawn at random after the case, so
// the worker cannot know which): as many as kFreshCheckBytes of inputs and kFreshCheckFlops of the
// problem's floating-point work make, within [kFreshCallsChecked, kFreshCallsCheckedMax] (each is
// a reference run in a child process). The work bound is for compute-bound problems: a 2048^3
// matmul's reference is 17 GFLOP in float64 (0.6 s on the H200 host's 16 cores), and its 32 MB of
// inputs alone would ask for 8 of them per case, for every submission judged. A submission that
// fakes a share f of the calls is caught with probability 1 - (1 - f)^k; moving the median takes
// f > 1/2 (>= 87.5% at k = 3; a 10% share is caught 97% of the time at k = 32).
inline constexpr int kFreshCallsChecked = 3;
inline constexpr int kFreshCallsCheckedMax = 32;
inline constexpr int64_t kFreshCheckBytes = int64_t(256) << 20;
inline constexpr double kFreshCheckFlops = 64e9;
int FreshCallsToCheck(int fresh_calls, int64_t input_bytes_per_call, double flops_per_call);

// One call's outputs (every checked buffer, concatenated) against input variant `variant`'s
// expected outputs: the worst buffer's result and that buffer's name.
using CallChecker = std::function<std::pair<CheckResult, std::string>(int variant, std::string_view bytes)>;

// Which fresh calls with large outputs the judge fetches after they end (their outputs do not
// travel with every call). Each call's draw is its own, from the run secret, made after it ends:
// call j (0-based) is fetched with probability size/window among the first `window` (the timing
// policy's min_samples), then size/(j+1), so what the worker saw fetched says nothing about the
// calls to come (an earlier plan drew exactly `size` calls of the window: once it had seen them,
// the worker knew the rest were safe). About `size` fetches when a case stops at the window (a
// plain reservoir fetches size * (1 + ln(calls / size))); at most `cap` are held, a later one
// replacing a held one at random. A case that stops before the window (slow calls: nothing to gain
// by faking) checks fewer, in proportion. The worker holds the drawn calls' outputs until the timed
// calls are over (a 256 MiB output takes 0.3-0.4 s through the pipe on the H200 host, time the GPU
// would otherwise sit out in the run's exclusive turn), in `cap` device slots it makes before the
// case's first call (protocol 7; a copy into host memory, with its page faults, took 0.1-0.2 s per
// 256 MiB inside that turn). The judge receives them all in host memory: `cap` keeps them within
// kKeptShareOfHostMemory of the worker's host memory limit, the figure a case's host memory is
// planned by.
struct FetchPlan {
  size_t size = 0, window = 1, cap = 1;
};
inline constexpr double kKeptShareOfHostMemory = 0.25;
FetchPlan PlanFetches(size_t size, size_t window, uint64_t output_bytes_per_call, double host_memory_mb);
// Fresh call `ordinal` (0-based) has ended with `held` calls held: the slot it takes (== held:
// one more), or nullopt when it is not fetched. `draw` is a secret number for this call.
std::optional<size_t> FetchSlot(const FetchPlan& plan, size_t ordinal, size_t held, uint64_t draw);
// The plan of a timed case with fresh inputs: FreshCallsToCheck of its calls, drawn over the first
// `min_samples`, when its outputs are too large to travel with each call (kSmallOutputBytesPerCall);
// none when they travel. Its cap is the slots the worker makes (CaseRequest::kept_slots) and the
// device memory they take (run/check_problem.h DeviceBytesOfCase): one definition.
std::optional<FetchPlan> PlanFreshFetches(int64_t input_bytes_per_call, uint64_t output_bytes_per_call,
                                          double flops_per_call, int min_samples, double host_memory_mb);

OutputJudgement JudgeOutputs(int variants, const CaseReport& report, std::string_view outputs,
                             const CallChecker& check);

// CallChecker's rule for tolerance and exact checks: each buffer against its expected values.
std::pair<CheckResult, std::string> CheckCall(const Problem& problem, const ExpectedOutputs& expected,
                                              std::string_view bytes);

// The first diagnostic rerun, with zeros instead of NaN after every input. Passing then means the
// submission reads past the end of its input (MV); a finite wrong answer there shows the
// arithmetic error the NaN guard hid. Returns true when the judgement is final.
bool ExplainWithZeroGuard(const Problem& problem, const std::optional<CheckResult>& rerun, OutputJudgement* j);
// The second, with outputs starting at zero: passing then means solve() never cleared its output.
void ExplainWithZeroOutputs(const std::optional<CheckResult>& rerun, OutputJudgement* j);
// Either explanation holds only when the failure comes back run as it first ran: `control` is that
// call again (NaN after the inputs, outputs poisoned). Passing there means the answer depends on what
// earlier calls left (a static variable, memory of its own), which would pass any rerun: said, and
// the judgement is final (true). The verdict stays WA.
bool ExplainNotReproduced(const std::optional<CheckResult>& control, OutputJudgement* j);

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/rules/case_verdict.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <map>

#include "judge/util/subprocess.h"

namespace judge {
namespace {

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

std::vector<const Param*> OutputParams(const Problem& problem) {
  std::vector<const Param*> out;
  for (const Param& p : problem.params)
    if (p.IsChecked()) out.push_back(&p);
  return out;
}

// The judge fills outputs with 0xFF bytes (NaN) before each call: still all 0xFF means unwritten.
bool AllPoison(std::string_view bytes) {
  return !bytes.empty() && bytes.find_first_not_of('\xff') == std::string_view::npos;
}

}  // namespace

Failure WorkerEnded(const WorkerEvent& ev, const std::string& when, const Limits& limits, bool submission_loaded) {
  using Kind = WorkerEvent::Kind;
  if (!submission_loaded && ev.kind == Kind::kMemoryLimit)
    return {Verdict::kInternalError,
            "the judge's worker used more than " + std::to_string(int(limits.host_memory_mb)) + " MiB of host memory " +
                when +
                ", before any submission code ran: the memory limit is too small for the "
                "worker itself (raise --memory-limit-mb or the problem's limits.host_memory_mb)"};
  if (!submission_loaded && ev.kind != Kind::kInterrupted) {
    Failure f = WorkerEnded(ev, when, limits);
    return {Verdict::kInternalError, "the judge's worker failed before any submission code ran: " + f.detail};
  }
  switch (ev.kind) {
    case Kind::kBroken:
      return {Verdict::kRuntimeError, "the worker's result channel was corrupted " + when + " (" + ev.error +
                                          "); a submission must not write to file descriptor 4"};
    case Kind::kExited:
      if (ev.signal == SIGKILL)
        return {Verdict::kRuntimeError,
                "killed by SIGKILL " + when + " (by the kernel's out-of-memory killer, or from outside)"};
      if (ev.signal == SIGSYS)
        return {Verdict::kRuntimeError, "killed by SIGSYS " + when +
                                            ": the sandbox stopped a forbidden system call "
                                            "(starting a program, fork, a network socket, ptrace, mount...; "
                                            "the line it left on stderr names it)"};
      if (ev.signal) return {Verdict::kRuntimeError, "killed by " + DescribeSignal(ev.signal) + " " + when};
      return {Verdict::kRuntimeError, "the process exited with code " + std::to_string(ev.exit_code) + " " + when +
                                          " (exit() or abort() in the submission?)"};
    case Kind::kInterrupted: return {Verdict::kNotRun, "interrupted " + when};
    case Kind::kOutputLimit:
      return {Verdict::kOutputLimit, "printed more than " + std::to_string(int(limits.output_kb)) +
                                         " KiB on stdout/stderr " + when +
                                         " (the first 64 KiB of each are in the report)"};
    case Kind::kMemoryLimit:
      return {Verdict::kMemoryLimit,
              "used more than " + std::to_string(int(limits.host_memory_mb)) + " MiB of host memory " + when};
    case Kind::kTimeout:
    case Kind::kFrame: break;
  }
  return {Verdict::kInternalError, "unexpected worker event " + when};
}

Failure TimedOut(bool in_call, int call, double setup_limit_seconds, double call_limit_seconds) {
  if (!in_call)
    return {Verdict::kInternalError,
            "the worker's setup (allocation and input upload) took over " + Seconds(setup_limit_seconds)};
  return {Verdict::kTimeLimit, "solve() did not return within the " + Seconds(call_limit_seconds) +
                                   " limit per call (call " + std::to_string(call) + ")"};
}

Failure Faulted(const FaultMessage& fault, int calls_done) {
  switch (fault.phase) {
    case FaultPhase::kInit: return {Verdict::kInternalError, "device: " + fault.message};
    case FaultPhase::kLoad: return {Verdict::kCompileError, "the library cannot be loaded: " + fault.message};
    case FaultPhase::kSolve: {
      std::string call = " (call " + std::to_string(calls_done + 1) + ")";
      if (fault.cause == FaultCause::kDeviceMemory)
        return {Verdict::kMemoryLimit, "device memory exhausted: " + fault.message + call};
      return {Verdict::kRuntimeError, fault.message + call};
    }
    case FaultPhase::kSetup:
    case FaultPhase::kProtocol: break;
  }
  return {Verdict::kInternalError,
          "worker fault during " + std::string(FaultPhaseName(fault.phase)) + ": " + fault.message};
}

Failure Unexpected(MessageKind got, const std::string& while_doing) {
  return {Verdict::kInternalError, "worker answered \"" + std::string(MessageKindName(got)) + "\" " + while_doing};
}

Failure WhileLoading(Failure failure) {
  if (failure.verdict != Verdict::kInternalError)
    failure.detail = "while loading the library (static constructors run here): " + failure.detail;
  return failure;
}

std::pair<CheckResult, std::string> CheckCall(const Problem& problem, const ExpectedOutputs& expected,
                                              std::string_view bytes) {
  auto outputs = OutputParams(problem);
  CheckResult worst;
  worst.passed = true;
  std::string name;
  size_t offset = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    size_t n = expected.values[i].size() * DTypeSize(outputs[i]->dtype);
    CheckResult r = CheckOutput(expected.values[i], expected.BoundsOf(i), bytes.substr(offset, n), outputs[i]->dtype,
                                problem.check);
    offset += n;
    if (name.empty() || (!r.passed && worst.passed) || r.tolerance_used > worst.tolerance_used) {
      worst = r;
      name = outputs[i]->name;
    }
  }
  return {worst, name};
}

int FreshCallsToCheck(int fresh_calls, int64_t input_bytes_per_call, double flops_per_call) {
  int64_t affordable = input_bytes_per_call > 0 ? kFreshCheckBytes / input_bytes_per_call : fresh_calls;
  if (flops_per_call > 0) affordable = std::min<int64_t>(affordable, int64_t(kFreshCheckFlops / flops_per_call));
  affordable = std::clamp<int64_t>(affordable, kFreshCallsChecked, kFreshCallsCheckedMax);
  return int(std::min<int64_t>(fresh_calls, affordable));
}

FetchPlan PlanFetches(size_t size, size_t window, uint64_t output_bytes_per_call, double host_memory_mb) {
  size = std::max<size_t>(size, 1);
  const double room = kKeptShareOfHostMemory * host_memory_mb * double(1 << 20);
  const size_t fits = size_t(room / double(std::max<uint64_t>(output_bytes_per_call, 1)));
  const size_t cap = std::clamp<size_t>(fits, 1, std::min<size_t>(2 * size, kFreshCallsCheckedMax));
  return FetchPlan{size, std::max<size_t>(window, 1), cap};
}

std::optional<FetchPlan> PlanFreshFetches(int64_t input_bytes_per_call, uint64_t output_bytes_per_call,
                                          double flops_per_call, int min_samples, double host_memory_mb) {
  if (output_bytes_per_call <= kSmallOutputBytesPerCall) return std::nullopt;
  const int64_t bytes = input_bytes_per_call + int64_t(output_bytes_per_call);
  return PlanFetches(size_t(FreshCallsToCheck(kFreshCallsCheckedMax, bytes, flops_per_call)),
                     size_t(std::max(1, min_samples)), output_bytes_per_call, host_memory_mb);
}

std::optional<size_t> FetchSlot(const FetchPlan& plan, size_t ordinal, size_t held, uint64_t draw) {
  const double p = std::min(1.0, double(plan.size) / double(std::max(plan.window, ordinal + 1)));
  // The low 32 bits decide; the high ones pick the slot a call beyond the cap replaces.
  if (double(draw & 0xffffffffu) >= p * 4294967296.0) return std::nullopt;
  if (held < plan.cap) return held;
  return size_t((draw >> 32) % held);
}

OutputJudgement JudgeOutputs(int variants, const CaseReport& rep, std::string_view outputs,
                             const CallChecker& check_call) {
  OutputJudgement j;
  // Views into `outputs`: a call's outputs can be hundreds of MB, and a copy of them costs as much
  // as checking them (page faults).
  std::map<int, std::string_view> first_output_of_variant;
  const size_t per_call = rep.output_bytes_per_call;
  for (size_t i = 0; i < rep.output_calls.size(); ++i) {
    const int index = rep.output_calls[i];
    const CallRecord& call = rep.calls[size_t(index)];
    const std::string_view bytes = outputs.substr(i * per_call, per_call);
    auto [check, buffer] = check_call(call.variant, bytes);
    if (!check.checker_error.empty()) {  // the problem's checker failed: the judge's fault, nothing to diagnose
      j.verdict = Verdict::kInternalError;
      j.detail = check.checker_error;
      j.diagnose = false;
      return j;
    }
    ++j.calls_checked;
    if (index == 0)
      j.check = check;
    else if (!j.timed_check || check.tolerance_used > j.timed_check->tolerance_used)
      j.timed_check = check;
    auto [it, inserted] = first_output_of_variant.emplace(call.variant, bytes);
    if (!inserted && it->second != bytes)
      j.deterministic = false;
    else if (!inserted && !j.deterministic.has_value())
      j.deterministic = true;
    if (check.passed || j.verdict != Verdict::kAccepted) continue;
    j.verdict = Verdict::kWrongAnswer;
    std::string what = AllPoison(bytes) ? "solve() did not write " + buffer + " (it still holds the judge's NaN poison)"
                                        : check.Describe(buffer);
    if (index == 0) {
      j.detail = what;
      continue;
    }
    j.detail = "call " + std::to_string(index + 1) + " (" + std::string(CallKindName(call.kind)) + ", input variant " +
               std::to_string(call.variant) + ") is wrong although the first call was right: " + what;
    for (int v = 0; v < variants; ++v)
      if (v != call.variant && check_call(v, bytes).first.passed)
        j.detail += "; it is the answer for input variant " + std::to_string(v) +
                    ": results must not be cached between calls, every call gets new data";
  }
  // Breaking the memory rules outranks a wrong answer: the output may be wrong because of it.
  if (rep.violation) {
    j.verdict = Verdict::kMemoryViolation;
    j.detail = rep.violation->message;
  }
  j.diagnose = j.verdict == Verdict::kWrongAnswer && j.check && !j.check->passed;
  return j;
}

bool ExplainWithZeroGuard(const Problem& problem, const std::optional<CheckResult>& rerun, OutputJudgement* j) {
  if (rerun && rerun->passed) {
    j->verdict = Verdict::kMemoryViolation;
    j->detail =
        "solve() reads past the end of its input: the answer was right when the memory after the input held "
        "zeros, and wrong when it held NaN (" +
        j->detail + "); check the bounds (idx < N)";
    return true;
  }
  if (rerun && std::isfinite(rerun->got) && j->check && !std::isfinite(j->check->got)) {
    // Wrong for two reasons: show the arithmetic error the NaN guard was hiding.
    std::string buffer = OutputParams(problem).front()->name;
    j->check = *rerun;
    j->detail = rerun->Describe(buffer) +
                " (measured with zeros after the input; it also reads past the end of "
                "its input, which made the answer NaN: check the bounds, idx < N)";
    return true;
  }
  return false;
}

bool ExplainNotReproduced(const std::optional<CheckResult>& control, OutputJudgement* j) {
  if (!control || !control->passed) return false;
  j->detail +=
      ". Run again, the same call with the same inputs was right: solve()'s answer depends on what its earlier "
      "calls left behind (a static variable, memory it keeps between calls); every call must compute its answer "
      "from its inputs alone";
  return true;
}

void ExplainWithZeroOutputs(const std::optional<CheckResult>& rerun, OutputJudgement* j) {
  if (rerun && rerun->passed)
    j->detail +=
        ". It passes only when the output starts at zero: solve() accumulates into output without "
        "clearing it first; add cudaMemset(output, 0, sizeof(float)) before the kernel";
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/supervise/supervisor.h"

#include <chrono>

#include "judge/check/tolerance_check.h"
#include "judge/util/subprocess.h"

namespace judge {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kInitSeconds = 60;   // CUDA context creation can take seconds on a cold GPU
constexpr double kCallSlackSeconds = 2;  // cache flush, event sync and copy-out around a call

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

}  // namespace

CaseRequest BuildCaseRequest(const Problem& problem, const Case& c) {
  CaseRequest r;
  r.name = c.name;
  r.timing = c.IsPerformance() ? problem.performance_timing : problem.functional_timing;
  for (const Param& p : problem.params) {
    ParamArg arg;
    arg.is_buffer = p.is_buffer;
    if (!p.is_buffer) {
      arg.scalar = int32_t(c.scalars.at(p.name));
    } else {
      arg.buffer.name = p.name;
      arg.buffer.is_input = p.role == Role::kInput;
      arg.buffer.dtype = p.dtype;
      arg.buffer.count = problem.ElementCount(p, c.scalars).value();
      if (arg.buffer.is_input) arg.buffer.input = c.inputs.at(p.name);
    }
    r.params.push_back(std::move(arg));
  }
  return r;
}

Supervisor::Supervisor(const Problem& problem, SupervisorConfig config) : problem_(problem), config_(std::move(config)) {}

Supervisor::~Supervisor() { Retire(); }

void Supervisor::Retire() {
  if (!worker_) return;
  worker_->Finish();
  worker_.reset();
}

Supervisor::Failure Supervisor::Death(const WorkerEvent& ev, const std::string& when) {
  switch (ev.kind) {
    case WorkerEvent::Kind::kTimeout:
      return {Verdict::kTimeLimit, when};
    case WorkerEvent::Kind::kBroken:
      return {Verdict::kRuntimeError, "the worker's result channel was corrupted " + when + " (" + ev.error +
                                          "); a submission must not write to file descriptor 4"};
    case WorkerEvent::Kind::kExited:
      if (ev.signal) return {Verdict::kRuntimeError, "killed by " + DescribeSignal(ev.signal) + " " + when};
      return {Verdict::kRuntimeError, "the process exited with code " + std::to_string(ev.exit_code) + " " + when +
                                          " (exit() or abort() in the submission?)"};
    case WorkerEvent::Kind::kInterrupted:
      return {Verdict::kNotRun, "interrupted " + when};
    case WorkerEvent::Kind::kFrame:
      break;
  }
  return {Verdict::kInternalError, "unexpected worker event " + when};
}

// Sends `request` and waits for a `want` frame; a fault frame or a death becomes a Failure.
std::optional<Supervisor::Failure> Supervisor::Converse(const Json& request, const std::string& want, Frame* reply,
                                                        double timeout) {
  if (auto st = worker_->Send(request); !st) {
    WorkerEvent ev = worker_->Next(1.0);
    return Death(ev, "before it read the " + request.value("type", "") + " request");
  }
  WorkerEvent ev = worker_->Next(timeout);
  if (ev.kind != WorkerEvent::Kind::kFrame) {
    if (ev.kind == WorkerEvent::Kind::kTimeout) worker_->Kill();
    return Death(ev, "while handling " + request.value("type", "") + (ev.kind == WorkerEvent::Kind::kTimeout ? " (no answer in " + Seconds(timeout) + ")" : ""));
  }
  std::string type = ev.frame.header.value("type", "");
  if (type == want) { *reply = std::move(ev.frame); return std::nullopt; }
  std::string message = ev.frame.header.value("message", "");
  std::string phase = ev.frame.header.value("phase", "");
  if (type == "fault" && phase == "init") return Failure{Verdict::kInternalError, "device: " + message};
  if (type == "fault" && phase == "load") return Failure{Verdict::kCompileError, "the library cannot be loaded: " + message};
  return Failure{Verdict::kInternalError, "worker answered \"" + type + "\" to " + request.value("type", "") + ": " + message};
}

std::optional<Supervisor::Failure> Supervisor::EnsureWorker() {
  if (load_failure_) return load_failure_;
  if (worker_) return std::nullopt;
  WorkerLaunch launch{{config_.worker_program, "__worker"}, config_.output_cap_bytes, 1ull << 32, config_.interrupted};
  auto spawned = WorkerProcess::Spawn(launch);
  if (!spawned) return Failure{Verdict::kInternalError, "cannot start a worker: " + spawned.error().message};
  worker_ = std::move(*spawned);
  Frame reply;
  if (auto f = Converse({{"type", "init"}, {"device", config_.device_kind}}, "device", &reply, kInitSeconds)) {
    Retire();
    return f;
  }
  if (auto f = Converse({{"type", "load"}, {"library", config_.library_path}, {"entry_point", problem_.entry_point}},
                        "loaded", &reply, problem_.limits.setup_seconds)) {
    // Loading runs the library's static constructors: a crash there is deterministic, so every
    // case gets the same verdict without retrying.
    if (f->verdict != Verdict::kInternalError) f->detail = "while loading the library (static constructors run here): " + f->detail;
    load_failure_ = f;
    Retire();
    return f;
  }
  return std::nullopt;
}

Expected<DeviceInfo> Supervisor::ProbeDevice() {
  WorkerLaunch launch{{config_.worker_program, "__worker"}, config_.output_cap_bytes, 1 << 20, config_.interrupted};
  auto spawned = WorkerProcess::Spawn(launch);
  if (!spawned) return MakeError(ErrorCode::kSubprocess, "cannot start a worker: " + spawned.error().message);
  worker_ = std::move(*spawned);
  Frame reply;
  auto failure = Converse({{"type", "init"}, {"device", config_.device_kind}}, "device", &reply, kInitSeconds);
  Retire();
  if (failure) return MakeError(ErrorCode::kNoDevice, failure->detail);
  return DeviceInfoFromJson(reply.header);
}

CaseResult Supervisor::RunCase(const Case& c, const ExpectedOutputs& expected) {
  auto start = Clock::now();
  CaseResult result;
  result.name = c.name;
  result.kind = c.kind;
  result.note = c.note;
  result.scalars = c.scalars;
  result.min_bytes = problem_.MinimumBytes(c.scalars).value();
  if (auto f = EnsureWorker()) {
    result.verdict = f->verdict;
    result.detail = f->detail;
  } else {
    size_t out_mark = worker_->captured_stdout().text.size(), err_mark = worker_->captured_stderr().text.size();
    RunLoadedCase(c, expected, result);
    if (worker_) worker_->DrainOutput();
    const WorkerProcess* w = worker_.get();
    result.worker_stdout = w ? w->captured_stdout().text.substr(out_mark) : last_stdout_.substr(std::min(out_mark, last_stdout_.size()));
    result.worker_stderr = w ? w->captured_stderr().text.substr(err_mark) : last_stderr_.substr(std::min(err_mark, last_stderr_.size()));
    result.output_truncated = w ? (w->captured_stdout().truncated() || w->captured_stderr().truncated()) : last_truncated_;
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

void Supervisor::RunLoadedCase(const Case& c, const ExpectedOutputs& expected, CaseResult& result) {
  auto fail = [&](Failure f) {
    result.verdict = f.verdict;
    result.detail = f.detail;
    last_stdout_ = worker_->captured_stdout().text;
    last_stderr_ = worker_->captured_stderr().text;
    last_truncated_ = worker_->captured_stdout().truncated() || worker_->captured_stderr().truncated();
    worker_->Kill();  // after any failure the process may hold a poisoned CUDA context
    worker_.reset();
  };
  if (auto st = worker_->Send(CaseRequestToJson(BuildCaseRequest(problem_, c))); !st)
    return fail(Death(worker_->Next(1.0), "before the case started"));
  bool ready = false;
  int calls = 0;
  for (;;) {
    double timeout = ready ? problem_.limits.call_seconds + kCallSlackSeconds : problem_.limits.setup_seconds;
    WorkerEvent ev = worker_->Next(timeout);
    if (ev.kind == WorkerEvent::Kind::kTimeout) {
      if (!ready) return fail({Verdict::kInternalError, "the worker's setup (allocation and input upload) took over " + Seconds(timeout)});
      return fail({Verdict::kTimeLimit, "solve() did not return within the " + Seconds(problem_.limits.call_seconds) +
                                            " limit per call (call " + std::to_string(calls + 1) + ")"});
    }
    if (ev.kind != WorkerEvent::Kind::kFrame)
      return fail(Death(ev, ready ? "during call " + std::to_string(calls + 1) + " of solve()" : "before the first call of solve()"));
    std::string type = ev.frame.header.value("type", "");
    if (type == "progress") {
      ready = true;
      calls = ev.frame.header.value("calls", calls);
      continue;
    }
    if (type == "case_done") { Judge(ev.frame, expected, result); return; }
    std::string message = ev.frame.header.value("message", "(no message)");
    if (type == "fault" && ev.frame.header.value("phase", "") == "solve")
      return fail({Verdict::kRuntimeError, message + " (call " + std::to_string(calls + 1) + ")"});
    return fail({Verdict::kInternalError, "worker " + type + " during setup: " + message});
  }
}

void Supervisor::Judge(const Frame& done, const ExpectedOutputs& expected, CaseResult& result) {
  size_t expected_bytes = 0;
  std::vector<const Param*> outputs;
  for (const Param& p : problem_.params)
    if (p.is_buffer && p.role == Role::kOutput) outputs.push_back(&p);
  for (size_t i = 0; i < outputs.size(); ++i) expected_bytes += expected[i].size() * DTypeSize(outputs[i]->dtype);
  if (done.blob.size() != 2 * expected_bytes || done.header.value("first_output_bytes", size_t(0)) != expected_bytes) {
    result.verdict = Verdict::kRuntimeError;
    result.detail = "the worker returned " + std::to_string(done.blob.size()) + " output bytes, expected " +
                    std::to_string(2 * expected_bytes) + " (result channel tampered with?)";
    return;
  }
  auto event_ms = done.header.value("event_ms", std::vector<double>{});
  result.event = Summarize(event_ms);
  result.wall = Summarize(done.header.value("wall_ms", std::vector<double>{}));
  result.warmup_calls = done.header.value("warmup_calls", 0);
  if (result.event.median > 0) result.gbps = double(result.min_bytes) / (result.event.median * 1e-3) / 1e9;
  result.verdict = Verdict::kAccepted;
  size_t offset = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    size_t bytes = expected[i].size() * DTypeSize(outputs[i]->dtype);
    CheckResult first = CheckOutput(expected[i], done.blob.substr(offset, bytes), outputs[i]->dtype, problem_.tolerance);
    CheckResult last = CheckOutput(expected[i], done.blob.substr(expected_bytes + offset, bytes), outputs[i]->dtype, problem_.tolerance);
    offset += bytes;
    if (!result.check || first.tolerance_used > result.check->tolerance_used) result.check = first;
    if (!result.timed_check || last.tolerance_used > result.timed_check->tolerance_used) result.timed_check = last;
    if (!first.passed) {
      result.verdict = Verdict::kWrongAnswer;
      result.detail = first.Describe(outputs[i]->name);
      return;
    }
    if (!last.passed) {
      result.verdict = Verdict::kWrongAnswer;
      result.detail = "right on the first call but wrong on the last timed call: " + last.Describe(outputs[i]->name);
      return;
    }
  }
}

}  // namespace judge

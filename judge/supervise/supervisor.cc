// SPDX-License-Identifier: MIT
#include "judge/supervise/supervisor.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <map>
#include <sstream>

#include <spdlog/spdlog.h>

#include "judge/check/tolerance_check.h"
#include "judge/util/fs.h"
#include "judge/util/subprocess.h"

namespace judge {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kInitSeconds = 60;      // CUDA context creation can take seconds on a cold GPU
constexpr double kCallSlackSeconds = 2;  // cache flush, event sync, memory checks around a call
constexpr uid_t kNobody = 65534;

double SecondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

std::vector<const Param*> OutputParams(const Problem& problem) {
  std::vector<const Param*> out;
  for (const Param& p : problem.params)
    if (p.is_buffer && p.role == Role::kOutput) out.push_back(&p);
  return out;
}

// Checks one call's outputs (all output buffers, concatenated) against one variant's expectation;
// returns the worst buffer's result and its name.
std::pair<CheckResult, std::string> CheckCall(const Problem& problem, const ExpectedOutputs& expected,
                                              const std::string& bytes) {
  auto outputs = OutputParams(problem);
  CheckResult worst;
  worst.passed = true;
  std::string name;
  size_t offset = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    size_t n = expected[i].size() * DTypeSize(outputs[i]->dtype);
    CheckResult r = CheckOutput(expected[i], bytes.substr(offset, n), outputs[i]->dtype, problem.tolerance);
    offset += n;
    if (name.empty() || (!r.passed && worst.passed) || r.tolerance_used > worst.tolerance_used) {
      worst = r;
      name = outputs[i]->name;
    }
  }
  return {worst, name};
}

// The n-th GPU the judge itself may use: an index into its own CUDA_VISIBLE_DEVICES when set.
std::string VisibleDevice(int n) {
  const char* list = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!list || !*list) return std::to_string(n);
  std::stringstream ss(list);
  std::string item;
  for (int i = 0; std::getline(ss, item, ','); ++i)
    if (i == n) return item;
  return std::to_string(n);
}

bool AllPoison(const std::string& bytes) { return !bytes.empty() && bytes.find_first_not_of('\xff') == std::string::npos; }

}  // namespace

CaseRequest BuildCaseRequest(const Problem& problem, const PreparedCase& c) {
  CaseRequest r;
  r.name = c.spec.name;
  r.timing = c.spec.IsPerformance() ? problem.performance_timing : problem.functional_timing;
  r.zero_outputs = problem.zero_init_outputs;
  for (const Param& p : problem.params) {
    ParamArg arg;
    arg.is_buffer = p.is_buffer;
    if (!p.is_buffer) {
      arg.scalar = int32_t(c.spec.scalars.at(p.name));
    } else {
      arg.buffer.name = p.name;
      arg.buffer.is_input = p.role == Role::kInput;
      arg.buffer.dtype = p.dtype;
      arg.buffer.count = problem.ElementCount(p, c.spec.scalars).value();
      if (arg.buffer.is_input)
        for (const auto& inputs : c.variant_inputs) arg.buffer.variants.push_back(inputs.at(p.name));
    }
    r.params.push_back(std::move(arg));
  }
  return r;
}

Supervisor::Supervisor(const Problem& problem, SupervisorConfig config) : problem_(problem), config_(std::move(config)) {}

Supervisor::~Supervisor() {
  Retire();
}

void Supervisor::Retire() {
  if (!worker_) return;
  if (config_.ahead) {
    config_.ahead->Retire(StartedWorker{std::move(worker_), scratch_}, config_.finish_grace_seconds);
    scratch_.clear();
    return;
  }
  auto start = Clock::now();
  worker_->Finish(config_.finish_grace_seconds);
  spdlog::debug("worker exited in {:.3f} s (CUDA context teardown)", SecondsSince(start));
  worker_.reset();
  if (!scratch_.empty()) RemoveTree(scratch_);
  scratch_.clear();
}

void Supervisor::Discard() {
  if (!worker_) return;
  last_stdout_ = worker_->captured_stdout().text;
  last_stderr_ = worker_->captured_stderr().text;
  last_truncated_ = worker_->captured_stdout().truncated() || worker_->captured_stderr().truncated();
  worker_->Kill();  // after any failure the process may hold a poisoned CUDA context
  worker_.reset();
  if (!scratch_.empty()) RemoveTree(scratch_);
  scratch_.clear();
}

Supervisor::Failure Supervisor::Death(const WorkerEvent& ev, const std::string& when) {
  switch (ev.kind) {
    case WorkerEvent::Kind::kTimeout:
      return {Verdict::kTimeLimit, when};
    case WorkerEvent::Kind::kBroken:
      return {Verdict::kRuntimeError, "the worker's result channel was corrupted " + when + " (" + ev.error +
                                          "); a submission must not write to file descriptor 4"};
    case WorkerEvent::Kind::kExited:
      if (ev.signal == 9)
        return {Verdict::kRuntimeError, "killed by SIGKILL " + when + " (by the kernel's out-of-memory killer, or from outside)"};
      if (ev.signal == SIGSYS)
        return {Verdict::kRuntimeError, "killed by SIGSYS " + when + ": the sandbox stopped a forbidden system call "
                                        "(starting a program, fork, a network socket, ptrace, mount...)"};
      if (ev.signal) return {Verdict::kRuntimeError, "killed by " + DescribeSignal(ev.signal) + " " + when};
      return {Verdict::kRuntimeError, "the process exited with code " + std::to_string(ev.exit_code) + " " + when +
                                          " (exit() or abort() in the submission?)"};
    case WorkerEvent::Kind::kInterrupted:
      return {Verdict::kNotRun, "interrupted " + when};
    case WorkerEvent::Kind::kOutputLimit:
      return {Verdict::kOutputLimit, "printed more than " + std::to_string(int(problem_.limits.output_kb)) +
                                         " KiB on stdout/stderr " + when + " (the first 64 KiB of each are in the report)"};
    case WorkerEvent::Kind::kMemoryLimit:
      return {Verdict::kMemoryLimit, "used more than " + std::to_string(int(problem_.limits.host_memory_mb)) +
                                         " MiB of host memory " + when};
    case WorkerEvent::Kind::kFrame:
      break;
  }
  return {Verdict::kInternalError, "unexpected worker event " + when};
}

// Sends `request` and waits for a `want` frame; a fault frame or a death becomes a Failure.
std::optional<Supervisor::Failure> Supervisor::Converse(const Json& request, const std::string& want, Frame* reply,
                                                        double timeout) {
  std::string type = request.is_null() ? "the " + want + " answer" : request.value("type", "");
  if (!request.is_null())
    if (auto st = worker_->Send(request); !st) return Death(worker_->Next(1.0), "before it read the " + type + " request");
  WorkerEvent ev = worker_->Next(timeout);
  if (ev.kind == WorkerEvent::Kind::kTimeout) {
    worker_->Kill();
    return Death(ev, "while handling " + type + " (no answer in " + Seconds(timeout) + ")");
  }
  if (ev.kind != WorkerEvent::Kind::kFrame) {
    worker_->Kill();
    return Death(ev, "while handling " + type);
  }
  std::string got = ev.frame.header.value("type", "");
  if (got == want) { *reply = std::move(ev.frame); return std::nullopt; }
  std::string message = ev.frame.header.value("message", "");
  std::string phase = ev.frame.header.value("phase", "");
  if (got == "fault" && phase == "init") return Failure{Verdict::kInternalError, "device: " + message};
  if (got == "fault" && phase == "load") return Failure{Verdict::kCompileError, "the library cannot be loaded: " + message};
  return Failure{Verdict::kInternalError, "worker answered \"" + got + "\" to " + type + ": " + message};
}

// Everything a worker for this supervisor starts with. Its environment holds only what CUDA and
// the loader need: the judge's own environment may hold secrets.
WorkerRecipe Supervisor::Recipe() const {
  WorkerRecipe r;
  r.argv = config_.wrapper;
  r.argv.insert(r.argv.end(), {config_.worker_program, "__worker"});
  r.env = {"LC_ALL=C"};
  if (config_.visible_device >= 0) r.env.push_back("CUDA_VISIBLE_DEVICES=" + VisibleDevice(config_.visible_device));
  for (const char* key : {"PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_HOME", "CUDA_MODULE_LOADING",
                          "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "CUDA_DEVICE_ORDER",
                          "JUDGE_HOST_CLOCK_MHZ"})
    if (const char* v = std::getenv(key); v && !(config_.visible_device >= 0 && std::string(key) == "CUDA_VISIBLE_DEVICES"))
      r.env.push_back(std::string(key) + "=" + v);
  r.limits = WorkerLaunch{{}, {}, config_.output_cap_bytes, 1ull << 32, config_.interrupted,
                          size_t(problem_.limits.output_kb * 1024), uint64_t(problem_.limits.host_memory_mb * 1024 * 1024)};
  SandboxPolicy policy;
  policy.enabled = config_.sandbox;
  // compute-sanitizer injects its own library into the worker, which must reach the tool's front
  // end (outside any namespace, as root): its runs keep only the rlimits, and say so.
  if (!config_.wrapper.empty()) policy.skip = {"network_namespace", "unprivileged", "no_new_privs", "landlock", "seccomp"};
  if (const char* skip = std::getenv("JUDGE_SANDBOX_SKIP")) {
    std::stringstream ss(skip);
    for (std::string layer; std::getline(ss, layer, ',');) policy.skip.push_back(layer);
  }
  r.init = {{"type", "init"}, {"device", std::string(DeviceKindName(config_.device_kind))}, {"flush", config_.flush}, {"sandbox", SandboxPolicyToJson(policy)}};
  r.init_seconds = kInitSeconds * config_.time_scale;
  r.chown_to_nobody = ::geteuid() == 0 && config_.sandbox;
  return r;
}

// The worker's own copy of the library (the cache may sit in a home folder that the unprivileged
// worker cannot enter).
Status Supervisor::CopyLibrary() const {
  std::string lib = scratch_ + "/submission.so";
  std::error_code ec;
  std::filesystem::copy_file(config_.library_path, lib, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) return MakeError(ErrorCode::kIo, "cannot copy the library into " + scratch_ + ": " + ec.message());
  ::chmod(lib.c_str(), 0500);
  if (::geteuid() == 0 && config_.sandbox) (void)::chown(lib.c_str(), kNobody, kNobody);
  return Status::Ok();
}

std::optional<Supervisor::Failure> Supervisor::EnsureWorker() {
  if (load_failure_) return load_failure_;
  if (worker_) return std::nullopt;
  const WorkerRecipe recipe = Recipe();
  auto start = Clock::now();
  if (auto spare = config_.ahead ? config_.ahead->Take(recipe) : std::nullopt) {
    worker_ = std::move(spare->process);
    scratch_ = spare->scratch;
    spdlog::debug("took a worker started ahead, its device open ({:.3f} s wait)", SecondsSince(start));
  } else {
    auto scratch = MakeWorkerScratch(recipe.chown_to_nobody);
    if (!scratch) return Failure{Verdict::kInternalError, "cannot prepare the worker's folder: " + scratch.error().message};
    scratch_ = *scratch;
    auto spawned = WorkerProcess::Spawn(recipe.Launch(scratch_));
    if (!spawned) {
      RemoveTree(scratch_);
      scratch_.clear();
      return Failure{Verdict::kInternalError, "cannot start a worker: " + spawned.error().message};
    }
    worker_ = std::move(*spawned);
    Frame reply;
    if (auto f = Converse(recipe.InitRequest(scratch_), "device", &reply, recipe.init_seconds)) {
      Discard();
      return f;
    }
    spdlog::debug("worker started and opened the device in {:.3f} s", SecondsSince(start));
  }
  // The next worker (after a crash, or for the next submission) starts while this one works.
  if (config_.ahead) config_.ahead->Prepare(recipe);
  if (auto st = CopyLibrary(); !st) {
    Discard();
    return Failure{Verdict::kInternalError, st.error().message};
  }
  start = Clock::now();
  Frame reply;
  auto f = Converse({{"type", "load"}, {"library", scratch_ + "/submission.so"}, {"entry_point", problem_.entry_point}},
                    "sandboxed", &reply, problem_.limits.setup_seconds);
  if (!f) {
    protections_ = SandboxReportFromJson(reply.header.value("protections", Json::array()));
    f = Converse(Json(), "loaded", &reply, problem_.limits.setup_seconds);  // dlopen: constructors run now
  }
  if (f) {
    // Loading runs the library's static constructors: a crash there is deterministic, so every
    // case gets the same verdict without retrying.
    if (f->verdict != Verdict::kInternalError) f->detail = "while loading the library (static constructors run here): " + f->detail;
    load_failure_ = f;
    Discard();
    return f;
  }
  spdlog::debug("worker sandboxed and loaded the submission in {:.3f} s", SecondsSince(start));
  return std::nullopt;
}

// A worker that runs only the judge's own code (no submission is loaded): no sandbox needed. It
// opens the device, answers `request` when there is one, and exits.
Expected<Frame> Supervisor::AskTrustedWorker(const Json& request, const std::string& want) {
  WorkerLaunch launch{{config_.worker_program, "__worker"}, {}, config_.output_cap_bytes, 1 << 20, config_.interrupted};
  auto spawned = WorkerProcess::Spawn(launch);
  if (!spawned) return MakeError(ErrorCode::kSubprocess, "cannot start a worker: " + spawned.error().message);
  worker_ = std::move(*spawned);
  Frame reply;
  auto failure = Converse({{"type", "init"}, {"device", std::string(DeviceKindName(config_.device_kind))}, {"sandbox", {{"enabled", false}}}},
                          "device", &reply, kInitSeconds);
  if (!failure && !request.is_null()) failure = Converse(request, want, &reply, kInitSeconds);
  if (worker_) worker_->Finish();
  worker_.reset();
  if (failure) return MakeError(ErrorCode::kNoDevice, failure->detail);
  return reply;
}

Expected<DeviceInfo> Supervisor::ProbeDevice() {
  auto reply = AskTrustedWorker(Json(), "");
  if (!reply) return reply.error();
  return DeviceInfoFromJson(reply->header);
}

Expected<ReadCeiling> Supervisor::MeasureCeiling() {
  auto reply = AskTrustedWorker({{"type", "ceiling"}}, "ceiling");
  if (!reply) return MakeError(ErrorCode::kInternal, reply.error().message);
  return ReadCeiling{reply->header.value("gbps", 0.0), reply->header.value("shape", "")};
}

Supervisor::Outcome Supervisor::Request(const PreparedCase& c, const CaseRequest& request) {
  Outcome out;
  auto fail = [&](Failure f) {
    out.failure = f;
    Discard();
    return out;
  };
  if (auto f = EnsureWorker()) { out.failure = f; return out; }
  // Timed work waits until the judge's own workers, starting or exiting, have left the GPU.
  if (config_.ahead && c.spec.IsPerformance()) config_.ahead->Quiesce();
  if (auto st = worker_->Send(CaseRequestToJson(request)); !st) return fail(Death(worker_->Next(1.0), "before the case started"));
  bool ready = false;
  int calls = 0;
  for (;;) {
    double timeout = (ready ? problem_.limits.call_seconds + kCallSlackSeconds : problem_.limits.setup_seconds) * config_.time_scale;
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
    if (type == "case_done") {
      auto report = CaseReportFromJson(ev.frame.header);
      if (!report) return fail({Verdict::kRuntimeError, report.error().message + " (result channel tampered with?)"});
      size_t expected_bytes = report->output_calls.size() * report->output_bytes_per_call;
      size_t per_call = 0;
      for (const auto& e : c.expected[0]) per_call += e.size() * 4;
      if (ev.frame.blob.size() != expected_bytes || report->output_bytes_per_call != per_call)
        return fail({Verdict::kRuntimeError, "the worker returned " + std::to_string(ev.frame.blob.size()) +
                                                 " output bytes, expected " + std::to_string(expected_bytes) + " (result channel tampered with?)"});
      out.report = std::move(*report);
      out.outputs = std::move(ev.frame.blob);
      return out;
    }
    std::string message = ev.frame.header.value("message", "(no message)");
    if (type == "fault" && ev.frame.header.value("phase", "") == "solve") {
      Verdict v = message.find("cudaErrorMemoryAllocation") != std::string::npos ? Verdict::kMemoryLimit : Verdict::kRuntimeError;
      if (v == Verdict::kMemoryLimit) message = "device memory exhausted: " + message;
      return fail({v, message + " (call " + std::to_string(calls + 1) + ")"});
    }
    return fail({Verdict::kInternalError, "worker " + type + " during setup: " + message});
  }
}

CaseResult Supervisor::RunCase(const PreparedCase& c) {
  auto start = Clock::now();
  CaseResult result;
  result.name = c.spec.name;
  result.kind = c.spec.kind;
  result.note = c.spec.note;
  result.scalars = c.spec.scalars;
  result.min_bytes = problem_.MinimumBytes(c.spec.scalars).value();
  result.input_variants = int(c.expected.size());
  Printed printed;
  if (worker_) {
    printed.out_mark = worker_->captured_stdout().text.size();
    printed.err_mark = worker_->captured_stderr().text.size();
  }
  CaseRequest request = BuildCaseRequest(problem_, c);
  request.diagnostic = config_.single_call;
  request.hot = config_.hot && c.spec.IsPerformance();
  Outcome outcome = Request(c, request);
  if (c.spec.IsPerformance() && config_.timing_processes > 1 && !outcome.failure)
    TimeInMoreProcesses(c, request, &outcome, &printed);
  if (outcome.failure) {
    result.verdict = outcome.failure->verdict;
    result.detail = outcome.failure->detail;
  } else {
    Judge(c, outcome, result);
  }
  if (worker_) worker_->DrainOutput();
  const std::string& out = worker_ ? worker_->captured_stdout().text : last_stdout_;
  const std::string& err = worker_ ? worker_->captured_stderr().text : last_stderr_;
  result.worker_stdout = printed.out + out.substr(std::min(printed.out_mark, out.size()));
  result.worker_stderr = printed.err + err.substr(std::min(printed.err_mark, err.size()));
  result.output_truncated = worker_ ? (worker_->captured_stdout().truncated() || worker_->captured_stderr().truncated()) : last_truncated_;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

void Supervisor::TimeInMoreProcesses(const PreparedCase& c, const CaseRequest& request, Outcome* outcome,
                                     Printed* printed) {
  outcome->call_process.assign(outcome->report.calls.size(), 0);
  for (int process = 1; process < config_.timing_processes; ++process) {
    worker_->DrainOutput();
    const std::string& out = worker_->captured_stdout().text;
    const std::string& err = worker_->captured_stderr().text;
    printed->out += out.substr(std::min(printed->out_mark, out.size()));
    printed->err += err.substr(std::min(printed->err_mark, err.size()));
    printed->out_mark = printed->err_mark = 0;
    Retire();
    Outcome more = Request(c, request);
    if (more.failure) {
      outcome->failure = more.failure;
      return;
    }
    const int shift = int(outcome->report.calls.size());
    CaseReport& into = outcome->report;
    into.calls.insert(into.calls.end(), more.report.calls.begin(), more.report.calls.end());
    for (int call : more.report.output_calls) into.output_calls.push_back(call + shift);
    if (!into.violation) into.violation = more.report.violation;
    outcome->outputs += more.outputs;
    outcome->call_process.resize(into.calls.size(), process);
  }
}

void Supervisor::Judge(const PreparedCase& c, const Outcome& outcome, CaseResult& result) {
  const CaseReport& rep = outcome.report;
  MeasureTiming(outcome, result);
  result.verdict = Verdict::kAccepted;
  std::map<int, std::string> first_output_of_variant;
  size_t per_call = rep.output_bytes_per_call;
  for (size_t i = 0; i < rep.output_calls.size(); ++i) {
    const CallRecord& call = rep.calls[size_t(rep.output_calls[i])];
    std::string bytes = outcome.outputs.substr(i * per_call, per_call);
    auto [check, buffer] = CheckCall(problem_, c.expected[size_t(call.variant)], bytes);
    ++result.calls_checked;
    if (rep.output_calls[i] == 0) result.check = check;
    else if (!result.timed_check || check.tolerance_used > result.timed_check->tolerance_used) result.timed_check = check;
    auto [it, inserted] = first_output_of_variant.emplace(call.variant, bytes);
    if (!inserted && it->second != bytes) result.deterministic = false;
    else if (!inserted && !result.deterministic.has_value()) result.deterministic = true;
    if (check.passed || result.verdict != Verdict::kAccepted) continue;
    result.verdict = Verdict::kWrongAnswer;
    std::string what = AllPoison(bytes) ? "solve() did not write " + buffer + " (it still holds the judge's NaN poison)"
                                         : check.Describe(buffer);
    if (rep.output_calls[i] == 0) { result.detail = what; continue; }
    result.detail = "call " + std::to_string(rep.output_calls[i] + 1) + " (" + std::string(CallKindName(call.kind)) +
                    ", input variant " + std::to_string(call.variant) + ") is wrong although the first call was right: " + what;
    for (size_t v = 0; v < c.expected.size(); ++v)
      if (int(v) != call.variant && CheckCall(problem_, c.expected[v], bytes).first.passed)
        result.detail += "; it is the answer for input variant " + std::to_string(v) +
                         ": results must not be cached between calls, every call gets new data";
  }
  if (rep.violation) {
    result.verdict = Verdict::kMemoryViolation;
    result.detail = rep.violation->message;
  } else if (result.verdict == Verdict::kWrongAnswer && result.check && !result.check->passed) {
    Diagnose(c, result);
  }
}

// Re-runs a case that failed on its first call in two diagnostic modes, to say why.
void Supervisor::Diagnose(const PreparedCase& c, CaseResult& result) {
  CaseRequest zero_guard = BuildCaseRequest(problem_, c);
  zero_guard.diagnostic = true;
  zero_guard.guard_nan = false;
  auto rerun = Rerun(c, zero_guard);
  if (rerun && rerun->passed) {
    result.verdict = Verdict::kMemoryViolation;
    result.detail = "solve() reads past the end of its input: the answer was right when the memory after the input held "
                    "zeros, and wrong when it held NaN (" + result.detail + "); check the bounds (idx < N)";
    return;
  }
  if (rerun && std::isfinite(rerun->got) && result.check && !std::isfinite(result.check->got)) {
    // Wrong for two reasons: show the arithmetic error the NaN guard was hiding.
    std::string buffer = OutputParams(problem_).front()->name;
    result.check = *rerun;
    result.detail = rerun->Describe(buffer) + " (measured with zeros after the input; it also reads past the end of "
                                              "its input, which made the answer NaN: check the bounds, idx < N)";
    return;
  }
  if (problem_.zero_init_outputs) return;
  CaseRequest zero_out = BuildCaseRequest(problem_, c);
  zero_out.diagnostic = true;
  zero_out.zero_outputs = true;
  auto zero_rerun = Rerun(c, zero_out);
  if (zero_rerun && zero_rerun->passed)
    result.detail += ". It passes only when the output starts at zero: solve() accumulates into output without "
                     "clearing it first; add cudaMemset(output, 0, sizeof(float)) before the kernel";
}

std::optional<CheckResult> Supervisor::Rerun(const PreparedCase& c, const CaseRequest& request) {
  Outcome o = Request(c, request);
  if (o.failure || o.report.violation || o.report.output_calls.empty()) return std::nullopt;
  return CheckCall(problem_, c.expected[0], o.outputs.substr(0, o.report.output_bytes_per_call)).first;
}

void Supervisor::MeasureTiming(const Outcome& outcome, CaseResult& result) const {
  const CaseReport& rep = outcome.report;
  auto ProcessOf = [&](size_t call) { return call < outcome.call_process.size() ? outcome.call_process[call] : 0; };
  auto Net = [this](double ms) { return std::max(0.0, ms - config_.window_correction_ms); };
  result.setup_seconds = rep.setup_ms / 1e3;
  result.overhead_event_ms = rep.overhead_event_ms;
  bool any_steady = false;
  for (const CallRecord& call : rep.calls) any_steady |= call.kind == CallKind::kTimed && !call.throttled;
  std::vector<double> event, wall, hot, clocks;
  bool any_timed = false;
  for (const CallRecord& call : rep.calls) any_timed |= call.kind == CallKind::kTimed;
  for (size_t i = 0; i < rep.calls.size(); ++i) {
    const CallRecord& call = rep.calls[i];
    if (call.kind == CallKind::kWarmup) ++result.warmup_calls;
    // A case whose first call outlasted its budget has that call (flushed and timed) as its figure.
    if (!any_timed && call.kind == CallKind::kCheck && !config_.single_call) {
      event.push_back(call.event_ms);
      wall.push_back(call.wall_ms);
      result.samples.push_back({Net(call.event_ms), call.variant, call.clock_mhz, ProcessOf(i)});
    }
    if (call.kind == CallKind::kHot) hot.push_back(Net(call.event_ms));
    if (call.kind != CallKind::kTimed) continue;
    if (call.throttled && any_steady) { ++result.throttled_discarded; continue; }
    event.push_back(call.event_ms);
    wall.push_back(call.wall_ms);
    result.samples.push_back({Net(call.event_ms), call.variant, call.clock_mhz, ProcessOf(i)});
    if (call.clock_mhz > 0) clocks.push_back(call.clock_mhz);
  }
  result.hot = Summarize(hot);
  result.sm_clock_mhz = Summarize(clocks).median;
  if (!event.empty() && !any_steady)
    result.flags.push_back("the GPU was throttled through every timed call (SM clock " + std::to_string(int(result.sm_clock_mhz)) +
                           " MHz, under 75% of its peak): the timing is not representative");
  // The audit compares what the events saw with the host's wait, so it takes the raw times; the
  // reported figure is net of the empty window (what the events cost by themselves).
  std::vector<double> net;
  for (double ms : event) net.push_back(Net(ms));
  result.event = Summarize(net);
  result.wall = Summarize(wall);
  result.raw_event_median_ms = Summarize(event).median;
  result.window_correction_ms = config_.window_correction_ms;
  if (event.empty()) return;
  result.audit = AuditTiming(event, wall, rep.overhead_wall_ms);
  if (!result.audit.escaped) result.audit.honest_median_ms = result.event.median;
  if (result.audit.escaped)
    result.flags.push_back("work escaped the event window: the events saw " + std::to_string(result.audit.event_median_ms) +
                           " ms but the host waited " + std::to_string(result.audit.unseen_ms) +
                           " ms more (another stream, or work left running after solve() returned); timed by the wall clock instead");
  double ms = result.audit.honest_median_ms;
  if (ms > 0) result.gbps = double(result.min_bytes) / (ms * 1e-3) / 1e9;
  if (config_.plausible_gbps > 0 && result.gbps > config_.plausible_gbps && result.min_bytes > (64 << 20))
    result.flags.push_back("implausible: " + std::to_string(int(result.gbps)) + " GB/s is above what this GPU's memory can deliver (" +
                           std::to_string(int(config_.plausible_gbps)) + " GB/s, " + config_.plausible_basis + ")");
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/run/case_runner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <future>
#include <optional>
#include <sstream>

#include <spdlog/spdlog.h>

#include "judge/device/checksum.h"
#include "judge/measure/sample_stats.h"
#include "judge/rules/case_timing.h"
#include "judge/util/counter_rng.h"
#include "judge/util/fs.h"
#include "judge/util/parallel.h"

namespace judge {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kInitSeconds = 60;      // CUDA context creation can take seconds on a cold GPU
constexpr double kCallSlackSeconds = 2;  // cache flush, event sync, memory checks around a call

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

// Why a wait for the worker did not give the message awaited, as a verdict.
Failure NotHeard(const Heard& heard, const std::string& when, const Limits& limits, bool submission_loaded) {
  if (heard.ok()) {
    if (auto* fault = std::get_if<FaultMessage>(&*heard.message)) return Faulted(*fault, 0);
    return Unexpected(KindOf(*heard.message), when);
  }
  return WorkerEnded(heard.event, when, limits, submission_loaded);
}

// A message only a submission writing to the worker's result channel makes (the harness never
// does): the submission's fault, said as such.
Failure Tampered(const std::string& what) {
  return {Verdict::kRuntimeError, what + " (result channel tampered with?)"};
}

// The seeds of one fresh call, one per buffer of input data in signature order.
std::vector<uint64_t> FreshSeeds(uint64_t run_secret, const std::string& case_name, uint64_t request, int call,
                                 const CaseRequest& r) {
  std::vector<uint64_t> seeds;
  for (const ParamArg& p : r.params)
    if (p.is_buffer && p.buffer.HoldsInputData())
      seeds.push_back(FreshSeed(run_secret, case_name, request, call, seeds.size()));
  return seeds;
}

// HostChecksum on every core: a sum of words mixed with their indices, so the chunks' sums add up
// to the same bits.
uint64_t ParallelChecksum(const char* data, size_t bytes) {
  const int64_t words = int64_t(bytes / 4);
  std::vector<uint64_t> sums(ParallelChunkCount(words), 0);
  ParallelChunks(words, [&](unsigned c, int64_t begin, int64_t end) {
    uint64_t sum = 0;
    for (int64_t i = begin; i < end; ++i) {
      uint32_t word;
      std::memcpy(&word, data + 4 * i, 4);
      sum += MixWord(word, uint64_t(i));
    }
    sums[c] = sum;
  });
  uint64_t sum = 0;
  for (uint64_t s : sums) sum += s;
  return sum;
}

// The outputs' digest as the worker makes it (OutputsDigest of each checked buffer's checksum).
uint64_t DigestOf(const CaseRequest& r, const std::string& outputs) {
  std::vector<uint64_t> sums;
  size_t offset = 0;
  for (const ParamArg& p : r.params) {
    if (!p.is_buffer || !p.buffer.IsChecked()) continue;
    const size_t bytes = size_t(p.buffer.count) * DTypeSize(p.buffer.dtype);
    sums.push_back(ParallelChecksum(outputs.data() + offset, bytes));
    offset += bytes;
  }
  return OutputsDigest(sums);
}

// What a case_done must agree with: the request's variants, the fresh calls the judge timed, and
// outputs that are never a fresh call's (those came with the call). Why not, or nullopt.
std::optional<std::string> Inconsistent(const CaseReport& rep, const CaseRequest& request,
                                        const std::vector<CaseRunner::FreshCall>& fresh, size_t per_call) {
  if (rep.output_bytes_per_call != per_call)
    return "the worker returned " + std::to_string(rep.output_bytes_per_call) + " output bytes per call, expected " +
           std::to_string(per_call);
  int variants = 1;
  for (const ParamArg& p : request.params)
    if (p.is_buffer && p.buffer.HoldsInputData()) variants = int(p.buffer.variants.size());
  size_t fresh_seen = 0;
  for (size_t i = 0; i < rep.calls.size(); ++i) {
    const CallRecord& call = rep.calls[i];
    if (call.fresh) {
      if (fresh_seen >= fresh.size() || fresh[fresh_seen].call != int(i))
        return "call " + std::to_string(i + 1) + " is reported fresh, but the judge sent it no seeds";
      ++fresh_seen;
    } else if (call.variant >= variants) {
      return "call " + std::to_string(i + 1) + " names input variant " + std::to_string(call.variant) + " of " +
             std::to_string(variants);
    }
  }
  if (fresh_seen != fresh.size()) return "the worker reported fewer fresh calls than the judge timed";
  for (int c : rep.output_calls)
    if (rep.calls[size_t(c)].fresh) return "a fresh call's outputs came twice";
  return std::nullopt;
}

// Where a case's exchange with its worker goes, said in -v timelines (the figures the judge's own
// time is tuned from): setup until the worker is ready, its first (checked) call, and the worker's
// time between a fresh call's end and its next one, apart for calls whose outputs it keeps (copied
// to host memory while the timed case holds the GPU) and the others.
class ExchangeTimeline {
 public:
  void Ready() { ready_ = Clock::now(); }
  void Progress(int calls) {
    if (calls == 1 && !first_call_) first_call_ = Seconds(ready_);
  }
  void Fetched(bool kept) { fetched_ = {Clock::now(), kept}; }
  void NextCall() {
    if (!fetched_) return;
    Gap& g = gaps_[fetched_->second];
    g.seconds += Seconds(fetched_->first);
    ++g.count;
    fetched_.reset();
  }
  void Sampled(const std::string& name, int calls, double setup_seconds) {
    NextCall();
    auto ms = [](const Gap& g) { return g.count ? 1e3 * g.seconds / g.count : 0.0; };
    spdlog::debug(
        "{}: worker ready in {:.3f} s; {} calls in {:.3f} s, the first {:.3f} s; after a fresh call the worker "
        "took {:.1f} ms when it kept the outputs ({} calls), {:.1f} ms when not ({})",
        name, setup_seconds, calls, Seconds(ready_), first_call_.value_or(0), ms(gaps_[1]), gaps_[1].count,
        ms(gaps_[0]), gaps_[0].count);
  }

 private:
  struct Gap {
    double seconds = 0;
    int count = 0;
  };
  static double Seconds(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
  Clock::time_point ready_;
  std::optional<double> first_call_;
  std::optional<std::pair<Clock::time_point, bool>> fetched_;
  Gap gaps_[2];
};

}  // namespace

std::optional<std::pair<double, double>> ClockCalibrations::Find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = known_.find(key);
  if (it == known_.end()) return std::nullopt;
  return it->second;
}

void ClockCalibrations::Remember(const std::string& key, std::pair<double, double> calibration) {
  std::lock_guard<std::mutex> lock(mu_);
  known_.emplace(key, calibration);
}

CaseRequest BuildCaseRequest(const Problem& problem, const PreparedCase& c) {
  CaseRequest r;
  r.name = c.spec.name;
  r.timing = c.spec.IsPerformance() ? problem.performance_timing : problem.functional_timing;
  r.zero_outputs = problem.zero_init_outputs;
  for (const Param& p : problem.params) {
    ParamArg arg;
    arg.is_buffer = p.is_buffer;
    if (p.IsIntScalar()) {
      arg.scalar = int32_t(c.spec.scalars.at(p.name));
    } else if (p.IsRealScalar()) {
      arg.is_real = true;
      arg.real = float(c.spec.real_scalars.at(p.name));
    } else {
      arg.buffer.name = p.name;
      arg.buffer.role = p.role;
      arg.buffer.writable = p.writable;
      arg.buffer.dtype = p.dtype;
      arg.buffer.count = problem.ElementCount(p, c.spec.scalars).value();
      if (arg.buffer.HoldsInputData())
        for (const auto& inputs : c.variant_inputs) arg.buffer.variants.push_back(inputs.at(p.name));
    }
    r.params.push_back(std::move(arg));
  }
  return r;
}

CaseRunner::CaseRunner(const Problem& problem, CaseRunnerConfig config)
    : problem_(problem),
      config_(std::move(config)),
      session_(Recipe(), config_.ahead, config_.finish_grace_seconds),
      trusted_(Recipe(), nullptr, config_.finish_grace_seconds) {}

CaseRunner::~CaseRunner() {
  GpuTurns::Turn turn = GpuTurns::Shared(config_.turns.get());
  session_.Retire();
  trusted_.Retire();
}

// Everything a worker for this runner starts with. Its environment holds only what CUDA and the
// loader need: the judge's own environment may hold secrets.
WorkerRecipe CaseRunner::Recipe() const {
  WorkerRecipe r;
  r.argv = config_.wrapper;
  r.argv.insert(r.argv.end(), {config_.worker_program, "__worker"});
  r.env = {"LC_ALL=C"};
  if (config_.visible_device >= 0) r.env.push_back("CUDA_VISIBLE_DEVICES=" + VisibleDevice(config_.visible_device));
  for (const char* key :
       {"PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_HOME", "CUDA_MODULE_LOADING", "NVIDIA_VISIBLE_DEVICES",
        "NVIDIA_DRIVER_CAPABILITIES", "CUDA_DEVICE_ORDER", "JUDGE_HOST_CLOCK_MHZ"})
    if (const char* v = std::getenv(key);
        v && !(config_.visible_device >= 0 && std::string(key) == "CUDA_VISIBLE_DEVICES"))
      r.env.push_back(std::string(key) + "=" + v);
  r.limits = WorkerLaunch{{},
                          {},
                          config_.output_cap_bytes,
                          1ull << 32,
                          config_.interrupted,
                          size_t(problem_.limits.output_kb * 1024),
                          uint64_t(problem_.limits.host_memory_mb * 1024 * 1024)};
  r.limits.watch_descendants = !config_.wrapper.empty();  // the worker is the tool's child
  SandboxPolicy policy;
  policy.enabled = config_.sandbox;
  // compute-sanitizer injects its own library into the worker, which reports to the tool's front
  // end through a socket in the network namespace the front end started in: a new one leaves the
  // run hanging. The other layers hold (seccomp, Landlock, nobody, no_new_privs: each tried on the
  // H200, docs/results/h200-2026-12-01-sanitizer-sandbox.md); $JUDGE_SANITIZER_SKIP overrides the
  // list, for finding what a given machine's tool needs.
  if (!config_.wrapper.empty()) {
    policy.skip = LayersFromEnvironment("JUDGE_SANITIZER_SKIP").value_or(config_.wrapper_skip);
  }
  for (const auto& layer : SandboxSkipFromEnvironment()) policy.skip.push_back(layer);
  r.init = InitMessage{config_.device_kind, config_.flush, policy};
  r.init_seconds = kInitSeconds * config_.time_scale;
  r.chown_to_nobody = ::geteuid() == 0 && config_.sandbox;
  return r;
}

// The worker's own copy of the library (the cache may sit in a home folder that the unprivileged
// worker cannot enter).
Status CaseRunner::CopyLibrary() const {
  std::string lib = session_.scratch() + "/submission.so";
  std::error_code ec;
  std::filesystem::copy_file(config_.library_path, lib, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) return MakeError(ErrorCode::kIo, "cannot copy the library into " + session_.scratch() + ": " + ec.message());
  ::chmod(lib.c_str(), 0500);
  if (::geteuid() == 0 && config_.sandbox) (void)::chown(lib.c_str(), kNobodyUid, kNobodyUid);
  return Status::Ok();
}

std::optional<Failure> CaseRunner::EnsureWorker() {
  if (load_failure_) return load_failure_;
  if (session_.running()) return std::nullopt;
  auto started = session_.Start();
  if (!started) return Failure{Verdict::kInternalError, started.error().message};
  if (!started->ok() || KindOf(*started->message) != MessageKind::kDevice)
    return NotHeard(*started, "while opening the device", problem_.limits, /*submission_loaded=*/false);
  return Load();
}

// Loading runs the library's static constructors: a crash there is deterministic, so every case
// gets the same verdict without retrying.
std::optional<Failure> CaseRunner::Load() {
  if (auto st = CopyLibrary(); !st) {
    session_.Kill();
    return Failure{Verdict::kInternalError, st.error().message};
  }
  auto start = Clock::now();
  const double limit = problem_.limits.setup_seconds;
  Heard heard = session_.Ask(LoadMessage{session_.scratch() + "/submission.so", problem_.entry_point}, limit);
  if (heard.ok() && KindOf(*heard.message) == MessageKind::kSandboxed) {
    protections_ = std::get<SandboxedMessage>(*heard.message).protections;
    heard = session_.Next(limit);  // dlopen: constructors run now
  }
  if (heard.ok() && KindOf(*heard.message) == MessageKind::kLoaded) {
    for (const Protection& p : std::get<LoadedMessage>(*heard.message).protections) protections_.push_back(p);
    spdlog::debug("worker sandboxed and loaded the submission in {:.3f} s",
                  std::chrono::duration<double>(Clock::now() - start).count());
    return std::nullopt;
  }
  Failure f =
      heard.event.kind == WorkerEvent::Kind::kTimeout
          ? Failure{Verdict::kTimeLimit, "while handling load (no answer in " + std::to_string(int(limit)) + " s)"}
          : NotHeard(heard, "while handling load", problem_.limits, /*submission_loaded=*/true);
  load_failure_ = WhileLoading(f);
  session_.Kill();
  return load_failure_;
}

CaseRunner::Outcome CaseRunner::Request(const PreparedCase& c, const CaseRequest& request,
                                        const std::function<void()>& on_sampled) {
  if (auto f = EnsureWorker()) {
    Outcome out;
    out.failure = f;
    return out;
  }
  // Timed work waits until the judge's own workers, starting or exiting, have left the GPU.
  if (config_.ahead && c.spec.IsPerformance()) {
    const auto start = Clock::now();
    config_.ahead->Quiesce();
    spdlog::debug("case {}: {:.3f} s waiting for workers starting or exiting", c.spec.name,
                  std::chrono::duration<double>(Clock::now() - start).count());
  }
  return Exchange(session_, request, /*submission_loaded=*/true, on_sampled);
}

CaseRunner::Outcome CaseRunner::Exchange(WorkerSession& session, const CaseRequest& request, bool submission_loaded,
                                         const std::function<void()>& on_sampled) {
  Outcome out;
  auto fail = [&](Failure f) {
    out.failure = f;
    session.Kill();
    return out;
  };
  const uint64_t request_id = ++requests_;
  if (auto gone = session.Send(request))
    return fail(WorkerEnded(*gone, "before the case started", problem_.limits, submission_loaded));
  bool ready = false, sampled = false;
  int calls = 0;
  bool clock_started = false;  // the judge's clock, for the fresh call in flight, since clock_start
  Clock::time_point clock_start;
  const Limits& limits = problem_.limits;
  const size_t per_call = OutputBytesPerCall(request);
  const auto sent = Clock::now();
  double setup_seconds = 0;
  ExchangeTimeline timeline;
  for (;;) {
    double timeout = (ready ? limits.call_seconds + kCallSlackSeconds : limits.setup_seconds) * config_.time_scale;
    Heard heard = session.Next(timeout);
    if (!heard.ok() && heard.event.kind == WorkerEvent::Kind::kTimeout)
      return fail(TimedOut(ready, calls + 1, timeout, limits.call_seconds));
    if (!heard.ok())
      return fail(WorkerEnded(
          heard.event,
          ready ? "during call " + std::to_string(calls + 1) + " of solve()" : "before the first call of solve()",
          limits, submission_loaded));
    if (auto* progress = std::get_if<ProgressMessage>(&*heard.message)) {
      if (!ready) {
        setup_seconds = std::chrono::duration<double>(Clock::now() - sent).count();
        timeline.Ready();
      }
      ready = true;
      timeline.Progress(progress->calls);
      if (sampled) return fail(Tampered("progress came after the timed calls were said over"));
      if (progress->stage == ProgressStage::kSampled) {
        if (clock_started || progress->calls != calls)
          return fail(Tampered("the timed calls were said over out of turn"));
        sampled = true;
        timeline.Sampled(request.name, progress->calls, setup_seconds);
        if (on_sampled) on_sampled();
        continue;
      }
      if (progress->stage == ProgressStage::kAwaitCall) {
        if (!request.fresh_timed_inputs || progress->calls != calls || clock_started)
          return fail(Tampered("a fresh call was asked for out of turn"));
        timeline.NextCall();
        CallMessage call{calls, FreshSeeds(config_.run_secret, request.name, request_id, calls, request)};
        out.fresh.push_back(FreshCall{calls, call.seeds, 0, {}, std::nullopt});
        clock_started = true;
        clock_start = Clock::now();
        if (auto gone = session.Send(call))
          return fail(WorkerEnded(*gone, "before call " + std::to_string(calls + 1), limits, submission_loaded));
        continue;
      }
      if (clock_started) {  // the fresh call in flight is done: its outputs stop the judge's clock
        out.fresh.back().judge_ms = std::chrono::duration<double, std::milli>(Clock::now() - clock_start).count();
        clock_started = false;
        calls = progress->calls;
        if (per_call > kSmallOutputBytesPerCall) {
          if (!progress->digest || !progress->outputs.empty())
            return fail(Tampered("the worker ended a large fresh call without the digest of its outputs"));
          out.fresh.back().digest = progress->digest;
          if (auto f = MaybeFetch(session, request, request_id, out.fresh, out.kept)) return fail(*f);
          timeline.Fetched(std::find(out.kept.begin(), out.kept.end(), out.fresh.size() - 1) != out.kept.end());
          continue;
        }
        if (progress->outputs.size() != per_call)
          return fail(Tampered("the worker ended a fresh call with " + std::to_string(progress->outputs.size()) +
                               " output bytes, expected " + std::to_string(per_call)));
        out.fresh.back().outputs = std::move(progress->outputs);
      } else if (!progress->outputs.empty() || progress->digest)
        return fail(Tampered("outputs came outside a fresh call"));
      calls = progress->calls;
      continue;
    }
    if (auto* done = std::get_if<CaseDoneMessage>(&*heard.message)) {
      if (auto why = Inconsistent(done->report, request, out.fresh, per_call)) return fail(Tampered(*why));
      out.report = std::move(done->report);
      out.outputs = std::move(done->outputs);
      return out;
    }
    if (auto* fault = std::get_if<FaultMessage>(&*heard.message)) return fail(Faulted(*fault, calls));
    return fail(Unexpected(KindOf(*heard.message), "during a case"));
  }
}

// The large fresh calls to fetch, as rules/case_verdict.h's FetchPlan draws them from the run
// secret (the worker cannot know which count); what is held at the end is checked by
// CheckFreshCalls.
std::optional<Failure> CaseRunner::MaybeFetch(WorkerSession& session, const CaseRequest& request, uint64_t request_id,
                                              std::vector<FreshCall>& fresh, std::vector<size_t>& reservoir) {
  const int call = fresh.back().call;
  const size_t k = fresh.size();
  std::optional<size_t> slot;
  if (!request.noop)  // the calibration's outputs are the empty solve()'s: nothing to check
    slot = FetchSlot(fetch_plan_, k - 1, reservoir.size(),
                     FreshSeed(config_.run_secret, request.name, request_id, call, size_t(-1)));
  FetchMessage fetch{call, std::nullopt};
  if (slot) fetch.slot = int(*slot);
  if (auto gone = session.Send(fetch))
    return WorkerEnded(*gone, "after call " + std::to_string(call + 1), problem_.limits, !request.noop);
  if (!slot) return std::nullopt;
  if (*slot < reservoir.size())
    reservoir[*slot] = k - 1;  // the call held there is no longer checked
  else
    reservoir.push_back(k - 1);
  return std::nullopt;
}

std::optional<Failure> CaseRunner::CollectKept(WorkerSession& session, const CaseRequest& request, Outcome* outcome) {
  if (outcome->failure || outcome->kept.empty()) return std::nullopt;
  auto start = Clock::now();
  std::vector<size_t> kept;
  kept.swap(outcome->kept);  // collected once, whatever happens
  if (auto gone = session.Send(SendKeptMessage{}))
    return WorkerEnded(*gone, "before sending the kept outputs", problem_.limits, true);
  for (size_t index : kept) {
    FreshCall& f = outcome->fresh.at(index);
    const std::string which = "the outputs of call " + std::to_string(f.call + 1);
    Heard heard = session.Next(problem_.limits.setup_seconds * config_.time_scale);
    // Once solve() returned only the harness copies them: only the submission's code (a thread, GPU
    // work it left) can hold that up, or make the worker answer with something else.
    if (!heard.ok())
      return heard.event.kind == WorkerEvent::Kind::kTimeout
                 ? Failure{Verdict::kTimeLimit, "the worker did not send " + which + " within " +
                                                    std::to_string(int(problem_.limits.setup_seconds)) +
                                                    " s of the judge asking (work left running after solve()?)"}
                 : WorkerEnded(heard.event, "sending " + which, problem_.limits, true);
    if (auto* fault = std::get_if<FaultMessage>(&*heard.message)) return Faulted(*fault, f.call + 1);
    auto* got = std::get_if<CallOutputsMessage>(&*heard.message);
    if (!got || got->call != f.call) return Tampered("the worker answered send_kept with something else");
    if (got->outputs.size() != OutputBytesPerCall(request))
      return Tampered("call " + std::to_string(f.call + 1) + "'s outputs came with " +
                      std::to_string(got->outputs.size()) + " bytes, expected " +
                      std::to_string(OutputBytesPerCall(request)));
    if (!f.digest || DigestOf(request, got->outputs) != *f.digest)
      return Tampered("call " + std::to_string(f.call + 1) +
                      "'s outputs are not what they were when the call ended (their digest differs)");
    f.outputs = std::move(got->outputs);
  }
  spdlog::debug("{}: the kept outputs of {} calls fetched in {:.3f} s", request.name, kept.size(),
                std::chrono::duration<double>(Clock::now() - start).count());
  return std::nullopt;
}

std::pair<CheckResult, std::string> CaseRunner::CheckOneCall(const Case& inputs, const ExpectedOutputs& expected,
                                                             std::string_view bytes) const {
  if (problem_.check.kind != CheckKind::kReference || !config_.reference) return CheckCall(problem_, expected, bytes);
  auto r = config_.reference->Check(problem_, inputs, expected, bytes);
  if (r) {
    std::string buffer;
    int index = 0;
    for (const Param& p : problem_.params)
      if (p.IsChecked() && index++ == r->worst_output) buffer = p.name;
    return {*r, buffer};
  }
  // The checker is the problem's: its failure is the judge's (IE), made so where the verdict is.
  CheckResult failed;
  failed.custom = true;
  failed.checker_error = "the problem's checker failed: " + r.error().message;
  return {failed, "checker"};
}

std::optional<std::pair<double, double>> CaseRunner::CalibrateFresh(const CaseRequest& request) {
  if (!trusted_.running()) {
    auto started = trusted_.Start();
    if (!started || !started->ok() || KindOf(*started->message) != MessageKind::kDevice) {
      trusted_.Kill();
      return std::nullopt;
    }
    // Confined like the submission's worker (no library loaded): the same cost per system call.
    Heard sealed = trusted_.Ask(LoadMessage{"", problem_.entry_point}, problem_.limits.setup_seconds);
    if (sealed.ok() && KindOf(*sealed.message) == MessageKind::kSandboxed)
      sealed = trusted_.Next(problem_.limits.setup_seconds);
    if (!sealed.ok() || KindOf(*sealed.message) != MessageKind::kLoaded) {
      trusted_.Kill();
      return std::nullopt;
    }
  }
  CaseRequest noop = request;
  noop.noop = true;
  noop.kept_slots = 0;  // nothing of an empty solve() is fetched
  Outcome o = Exchange(trusted_, noop, /*submission_loaded=*/false);
  if (o.failure || o.fresh.empty()) {
    spdlog::warn("the judge's clock could not be calibrated for case {}: {}", request.name,
                 o.failure ? o.failure->detail : "no fresh calls");
    return std::nullopt;
  }
  std::vector<double> ms;
  for (const FreshCall& f : o.fresh) ms.push_back(f.judge_ms);
  SampleStats stats = Summarize(ms);
  return std::pair{stats.min, stats.iqr()};
}

CaseResult CaseRunner::RunCase(const PreparedCase& c, bool check_only) {
  auto start = Clock::now();
  CaseResult result;
  result.name = c.spec.name;
  result.kind = c.spec.kind;
  result.note = c.spec.note;
  result.scalars = c.spec.scalars;
  // Checked at the corners of the scalars' ranges when problem.json loaded; an expression that
  // fails in between is the problem's (IE), not a crash.
  auto work = problem_.WorkAt(c.spec.scalars);
  if (!work) {
    result.verdict = Verdict::kInternalError;
    result.detail = work.error().message;
    return result;
  }
  result.work = *work;
  result.min_bytes = result.work.bytes();
  case_flops_ = work->flops;
  result.input_variants = int(c.expected.size());
  session_.MarkOutput();
  CaseRequest request = BuildCaseRequest(problem_, c);
  request.diagnostic = config_.single_call;
  request.profile = config_.profile;
  const bool timed = c.spec.IsPerformance() && !check_only;
  if (!timed) request.timing = problem_.functional_timing;
  request.hot = config_.hot && timed;
  request.fresh_timed_inputs = timed && WantsFreshInputs(c);
  if (request.fresh_timed_inputs)
    if (auto plan = PlanFreshFetches(InputBytesPerCall(request), OutputBytesPerCall(request), case_flops_,
                                     request.timing.min_samples, problem_.limits.host_memory_mb)) {
      fetch_plan_ = *plan;
      request.kept_slots = int(plan->cap);
    }
  // Beside other runs, the timed calls (and the calibration they are measured against) have the
  // GPU alone; the checks after them share it again.
  GpuTurns::Turn turn = timed ? GpuTurns::Exclusive(config_.turns.get()) : GpuTurns::Shared(config_.turns.get());
  const auto turn_start = Clock::now();
  if (config_.turns)
    spdlog::debug("case {}: {} turn after {:.3f} s", c.spec.name, timed ? "exclusive" : "shared",
                  std::chrono::duration<double>(Clock::now() - start).count());
  // Calibrated first: the trusted worker then idles while the submission's runs. No submission code
  // may run meanwhile: its threads could load the GPU or the CPU and so inflate the share the judge
  // subtracts (which would hide a forgery), so its worker, if one is left from an earlier case,
  // exits first (its CUDA context, and any work it queued, with it).
  std::optional<std::pair<double, double>> calibration;
  if (request.fresh_timed_inputs && !load_failure_) {
    const std::string key = std::to_string(config_.visible_device) + "\n" + c.spec.name + "\n" +
                            Json(c.spec.scalars).dump() + Json(c.spec.real_scalars).dump();
    if (config_.calibrations) calibration = config_.calibrations->Find(key);
    // A calibration made by an earlier run of the same case needs no exit: the worker is kept, and
    // the exclusive turn pays no CUDA context teardown and no spare's start.
    const bool reused = calibration.has_value();
    if (!calibration) {
      session_.Retire();
      if (config_.ahead) config_.ahead->Quiesce();  // as for the timed calls: no worker starting or exiting on the GPU
      calibration = CalibrateFresh(request);
      if (calibration && config_.calibrations) config_.calibrations->Remember(key, *calibration);
    }
    if (config_.turns)
      spdlog::debug("case {}: the judge's clock calibration {} after {:.3f} s in the turn", c.spec.name,
                    reused ? "reused, worker kept," : "made, worker replaced,",
                    std::chrono::duration<double>(Clock::now() - turn_start).count());
  }
  // The GPU is the next run's once the timed calls are over (more timing processes follow the first
  // one's in the same exclusive turn). What a timed case has left is host work - the kept outputs'
  // trip through the pipe, their checks, the fresh calls' references - which runs in no turn, at
  // the priority of work prepared ahead (BesideTimedCalls); its GPU work takes a shared turn.
  bool exclusive = timed;
  auto leave_exclusive = [&] {
    if (!exclusive) return;
    exclusive = false;
    turn.Release();
    if (config_.turns)
      spdlog::debug("case {}: GPU handed on after {:.3f} s in the exclusive turn", c.spec.name,
                    std::chrono::duration<double>(Clock::now() - turn_start).count());
  };
  Outcome outcome = Request(c, request, config_.timing_processes > 1 ? std::function<void()>() : leave_exclusive);
  if (timed && config_.timing_processes > 1 && !outcome.failure) TimeInMoreProcesses(c, request, &outcome);
  leave_exclusive();
  std::optional<Failure> kept_failure;
  BesideTimedCalls(timed, [&] { kept_failure = CollectKept(session_, request, &outcome); });
  if (kept_failure) {
    GpuTurns::Turn exit_turn = SharedTurnIf(timed);  // its CUDA context ends
    session_.Kill();
    outcome.failure = kept_failure;
  }
  if (outcome.failure) {
    result.verdict = outcome.failure->verdict;
    result.detail = outcome.failure->detail;
  } else {
    Judge(c, outcome, calibration, timed, result);
  }
  Printed printed = session_.TakeOutput();
  result.worker_stdout = std::move(printed.out);
  result.worker_stderr = std::move(printed.err);
  result.output_truncated = printed.truncated;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

void CaseRunner::TimeInMoreProcesses(const PreparedCase& c, const CaseRequest& request, Outcome* outcome) {
  outcome->call_process.assign(outcome->report.calls.size(), 0);
  // Each worker's kept outputs are collected before it exits, in the exclusive turn.
  if (auto f = CollectKept(session_, request, outcome)) {
    session_.Kill();
    outcome->failure = f;
    return;
  }
  for (int process = 1; process < config_.timing_processes; ++process) {
    session_.Retire();
    Outcome more = Request(c, request);
    if (!more.failure)
      if (auto f = CollectKept(session_, request, &more)) {
        session_.Kill();
        more.failure = f;
      }
    if (more.failure) {
      outcome->failure = more.failure;
      return;
    }
    const int shift = int(outcome->report.calls.size());
    for (FreshCall& f : more.fresh) {
      f.call += shift;
      outcome->fresh.push_back(std::move(f));
    }
    CaseReport& into = outcome->report;
    into.calls.insert(into.calls.end(), more.report.calls.begin(), more.report.calls.end());
    for (int call : more.report.output_calls) into.output_calls.push_back(call + shift);
    if (!into.violation) into.violation = more.report.violation;
    outcome->outputs += more.outputs;
    outcome->call_process.resize(into.calls.size(), process);
  }
}

bool CaseRunner::WantsFreshInputs(const PreparedCase& c) const {
  if (!c.spec.IsPerformance() || config_.single_call || !config_.reference || c.variant_inputs.empty()) return false;
  for (const auto& [name, spec] : c.variant_inputs[0])
    if (!spec.generate) return false;
  return true;
}

GpuTurns::Turn CaseRunner::SharedTurnIf(bool needed) {
  return needed ? GpuTurns::Shared(config_.turns.get()) : GpuTurns::Turn();
}

template <typename F>
void CaseRunner::BesideTimedCalls(bool apart, F work) {
  // Only beside other runs: a run alone keeps its own thread (and the judge its priority).
  if (apart && config_.turns)
    RunAtNice(kBesideTimingNice, work);
  else
    work();
}

void CaseRunner::Judge(const PreparedCase& c, const Outcome& outcome,
                       const std::optional<std::pair<double, double>>& calibration, bool timed, CaseResult& result) {
  TimingContext timing{config_.window_correction_ms, config_.single_call, config_.plausible_gbps,
                       config_.plausible_basis,      JudgeClock{},        config_.ceilings};
  for (const FreshCall& f : outcome.fresh) timing.judge_clock.call_ms[f.call] = f.judge_ms;
  timing.judge_clock.wanted = !outcome.fresh.empty();
  if (calibration) {
    timing.judge_clock.calibrated = true;
    timing.judge_clock.calibration_ms = calibration->first;
    timing.judge_clock.calibration_spread_ms = calibration->second;
  }
  SummarizeTiming(outcome.report, outcome.call_process, timing, &result);
  auto variant_case = [&](int v) {
    Case variant = c.spec;
    variant.inputs = c.variant_inputs.at(size_t(v));
    return variant;
  };
  OutputJudgement j;
  BesideTimedCalls(timed, [&] {
    j = JudgeOutputs(int(c.expected.size()), outcome.report, outcome.outputs, [&](int v, std::string_view bytes) {
      return CheckOneCall(variant_case(v), *c.expected.at(size_t(v)), bytes);
    });
  });
  // A case that failed on its first call is run again in two diagnostic modes, to say why: GPU work,
  // on this thread (a worker it starts dies with the thread that started it).
  if (j.diagnose) {
    GpuTurns::Turn rerun_turn = SharedTurnIf(timed);
    // A rerun that passes explains the failure only if the failure comes back when the call runs
    // as at first (a submission that keeps state between calls passes any rerun); when it does
    // not, ExplainNotReproduced says so and nothing else is concluded.
    auto holds = [&](const std::optional<CheckResult>& rerun) {
      if (!rerun || !rerun->passed) return true;
      CaseRequest again = BuildCaseRequest(problem_, c);
      again.diagnostic = true;
      return !ExplainNotReproduced(Rerun(c, again), &j);
    };
    CaseRequest zero_guard = BuildCaseRequest(problem_, c);
    zero_guard.diagnostic = true;
    zero_guard.guard_nan = false;
    const auto guarded = Rerun(c, zero_guard);
    const bool said = !holds(guarded) || ExplainWithZeroGuard(problem_, guarded, &j);
    if (!said && !problem_.zero_init_outputs) {
      CaseRequest zero_out = BuildCaseRequest(problem_, c);
      zero_out.diagnostic = true;
      zero_out.zero_outputs = true;
      const auto zeroed = Rerun(c, zero_out);
      if (holds(zeroed)) ExplainWithZeroOutputs(zeroed, &j);
    }
  }
  result.verdict = j.verdict;
  result.detail = j.detail;
  result.check = j.check;
  result.timed_check = j.timed_check;
  result.calls_checked = j.calls_checked;
  result.deterministic = j.deterministic;
  if (result.verdict == Verdict::kAccepted) BesideTimedCalls(timed, [&] { CheckFreshCalls(c, outcome, result); });
}

// Fresh calls drawn from the run secret after the case (FreshCallsToCheck says how many), so the
// worker cannot know which; the references run in parallel, each in its own child process.
void CaseRunner::CheckFreshCalls(const PreparedCase& c, const Outcome& outcome, CaseResult& result) {
  auto start = Clock::now();
  std::vector<std::string> input_names;
  int64_t input_bytes = 0;
  for (const Param& p : problem_.params) {
    if (!p.HoldsInputData()) continue;
    input_names.push_back(p.name);
    input_bytes += problem_.ElementCount(p, c.spec.scalars).value() * int64_t(DTypeSize(p.dtype));
  }
  // The calls whose outputs the judge holds: all of them when small, else the reservoir's draw.
  std::vector<size_t> order;
  for (size_t i = 0; i < outcome.fresh.size(); ++i)
    if (!outcome.fresh[i].outputs.empty()) order.push_back(i);
  if (order.empty()) return;
  uint64_t state = FreshSeed(config_.run_secret, c.spec.name, requests_, -1, 0);
  for (size_t i = order.size(); i > 1; --i) {  // Fisher-Yates with the counter RNG's mixer
    state = rng::SplitMix64(state + i);
    std::swap(order[i - 1], order[size_t(state % i)]);
  }
  // A draw whose answer is far smaller or larger than the published one's is not checked (as for the
  // hidden variants, check/case_preparation.h): the next one in the random order takes its place.
  const size_t want = size_t(FreshCallsToCheck(int(order.size()), input_bytes, case_flops_));
  const double published_norm = AnswerNorm(*c.expected.at(0));
  size_t next = 0, checked = 0;
  while (checked < want && next < order.size()) {
    std::vector<size_t> batch(order.begin() + long(next),
                              order.begin() + long(std::min(order.size(), next + want - checked)));
    next += batch.size();
    std::vector<std::future<Expected<ExpectedOutputs>>> pending;
    for (size_t i : batch)
      pending.push_back(std::async(std::launch::async, [&, i] {
        return config_.reference->Compute(problem_, FreshCase(c, input_names, outcome.fresh[i].seeds));
      }));
    for (size_t k = 0; k < batch.size(); ++k) {
      const FreshCall& f = outcome.fresh[batch[k]];
      auto expected = pending[k].get();
      if (!expected) {
        result.verdict = Verdict::kInternalError;
        result.detail = "the reference failed on a timed call's fresh inputs: " + expected.error().message;
        return;
      }
      if (SizeDistance(AnswerNorm(*expected), published_norm) > std::log(kVariantMagnitudeRatio)) continue;
      auto [check, buffer] = CheckOneCall(FreshCase(c, input_names, f.seeds), *expected, f.outputs);
      if (!check.checker_error.empty()) {
        result.verdict = Verdict::kInternalError;
        result.detail = check.checker_error;
        return;
      }
      ++result.calls_checked;
      ++checked;
      if (check.passed) continue;
      result.verdict = Verdict::kWrongAnswer;
      result.detail = "wrong on timed call " + std::to_string(f.call + 1) +
                      ", whose inputs were generated when it started (right on the calls before: answers kept from "
                      "earlier calls, or work skipped?): " +
                      check.Describe(buffer);
      return;
    }
  }
  spdlog::debug("{}: {} fresh calls checked by the reference ({} drawn) in {:.3f} s", c.spec.name, checked, next,
                std::chrono::duration<double>(Clock::now() - start).count());
}

std::optional<CheckResult> CaseRunner::Rerun(const PreparedCase& c, const CaseRequest& request) {
  Outcome o = Request(c, request);
  if (o.failure || o.report.violation || o.report.output_calls.empty()) return std::nullopt;
  Case published = c.spec;
  published.inputs = c.variant_inputs.at(0);
  CheckResult r =
      CheckOneCall(published, *c.expected[0], std::string_view(o.outputs).substr(0, o.report.output_bytes_per_call))
          .first;
  if (!r.checker_error.empty()) return std::nullopt;  // says nothing about the submission
  return r;
}

Expected<DeviceInfo> ProbeDevice(const std::string& worker_program, DeviceKind device,
                                 const std::atomic<bool>* interrupted) {
  auto m = AskTrustedWorker({worker_program, "__worker"}, device, std::nullopt, MessageKind::kDevice, interrupted,
                            kInitSeconds);
  if (!m) return m.error();
  return std::get<DeviceMessage>(*m).info;
}

Expected<Ceilings> MeasureCeiling(const std::string& worker_program, DeviceKind device,
                                  const std::atomic<bool>* interrupted) {
  auto m = AskTrustedWorker({worker_program, "__worker"}, device, CeilingMessage{}, MessageKind::kCeilingMeasured,
                            interrupted, kInitSeconds);
  if (!m) return MakeError(ErrorCode::kInternal, m.error().message);
  return std::get<CeilingMeasuredMessage>(*m).ceiling;
}

}  // namespace judge

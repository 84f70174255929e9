// SPDX-License-Identifier: MIT
#include "judge/worker/harness.h"

#include <chrono>
#include <cstdio>
#include <thread>

#include "judge/device/checksum.h"
#include "judge/device/generate_kernel.h"
#include "judge/measure/sample_stats.h"
#include "judge/testcase/generate.h"

namespace judge {
namespace {

using Clock = std::chrono::steady_clock;
double SecondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

constexpr size_t kGuardBefore = 4096, kInputGuardAfter = 64 * 1024, kCanary = 4096;
constexpr uint8_t kNanByte = 0xFF;  // 0xFFFFFFFF is a NaN as float32 and -1 as int32
constexpr uint8_t kCanaryByte = 0xA5;
// nvbench's throttle rule: a sample whose SM clock fell under 75% of the peak is discarded, and
// the GPU gets a moment to recover; after this many discards the samples are kept (and flagged).
constexpr double kThrottleFraction = 0.75;
constexpr int kMaxDiscarded = 20;
constexpr auto kThrottleRecovery = std::chrono::milliseconds(50);
// A hot call has no flush to hide the host's launch latency behind: the stream is held this long
// instead, so solve() has queued its work before the start event fires.
constexpr double kHotHoldMicroseconds = 20;

Status ExpectFilled(Device& device, const uint8_t* device_ptr, size_t bytes, uint8_t value, bool* intact) {
  std::string host(bytes, '\0');
  JUDGE_TRY(device.CopyToHost(host.data(), device_ptr, bytes));
  *intact = host.find_first_not_of(char(value)) == std::string::npos;
  return Status::Ok();
}

}  // namespace

Expected<GuardedBuffer> CaseHarness::Allocate(size_t bytes, size_t before, size_t after, uint8_t guard_byte) {
  GuardedBuffer g;
  auto alloc = DeviceBuffer::Allocate(device_, before + bytes + after);
  if (!alloc) return alloc.error();
  g.allocation = std::move(*alloc);
  g.data = static_cast<uint8_t*>(g.allocation.get()) + before;
  g.bytes = bytes;
  g.before = before;
  g.after = after;
  g.guard_byte = guard_byte;
  JUDGE_TRY(device_.Fill(g.allocation.get(), guard_byte, g.allocation.bytes()));
  return g;
}

// Generated inputs are written by the device itself when it can (no host pass, no transfer of
// hundreds of MB); anything else is made on the host and copied. The checksum comes from where the
// data was made, not from reading it back: for a fresh call that pass would be on the judge's clock
// (a third of its own share at N = 1e8), with the variance of everything on it.
Status CaseHarness::Upload(const InputSpec& spec, DType dtype, int64_t count, void* dst, uint64_t* checksum) {
  auto fill = spec.generate ? CounterFillFor(*spec.generate, dtype) : std::nullopt;
  if (fill) {
    auto generated = device_.Generate(*fill, dst, count, checksum);
    if (!generated) return generated.error();
    if (*generated) {
      HostBytes head = MaterializeHead(*spec.generate, dtype, count);
      if (head.empty()) return Status::Ok();
      JUDGE_TRY(device_.CopyToDevice(dst, head.data(), head.size()));
      // The head's words replace generated ones: their share of the sum changes accordingly.
      *checksum += HostChecksum(head.data(), head.size());
      for (uint64_t i = 0; i < head.size() / 4; ++i) *checksum -= MixWord(CounterWord(*fill, i), i);
      return Status::Ok();
    }
  }
  HostBytes host = MaterializeInput(spec, dtype, count);
  *checksum = HostChecksum(host.data(), host.size());
  return device_.CopyToDevice(dst, host.data(), host.size());
}

Status CaseHarness::SetUpBuffer(const BufferArg& arg, const CaseRequest& request) {
  HarnessBuffer hb;
  hb.arg = &arg;
  const size_t bytes = size_t(arg.count) * DTypeSize(arg.dtype);
  const uint8_t guard = request.guard_nan ? kNanByte : 0;
  if (arg.HoldsInputData()) {
    for (const InputSpec& spec : arg.variants) {
      auto g = Allocate(bytes, kGuardBefore, kInputGuardAfter, guard);
      if (!g) return g.error();
      JUDGE_TRY(Upload(spec, arg.dtype, arg.count, g->data, &g->checksum));
      hb.sources.push_back(std::move(*g));
    }
    if (hb.sources.empty()) return MakeError(ErrorCode::kProtocol, "input " + arg.name + " has no data");
    variants_ = int(hb.sources.size());
    if (request.fresh_timed_inputs) {
      if (!arg.variants[0].generate)
        return MakeError(ErrorCode::kProtocol, "fresh inputs asked for input " + arg.name + ", which has no generator");
      auto g = Allocate(bytes, kGuardBefore, kInputGuardAfter, guard);
      if (!g) return g.error();
      hb.sources.push_back(std::move(*g));  // filled before each fresh call
    }
  }
  if (arg.role == Role::kOutput || arg.Restored()) {
    auto g = arg.role == Role::kOutput ? Allocate(bytes, kCanary, kCanary, kCanaryByte)
                                       : Allocate(bytes, kGuardBefore, kInputGuardAfter, guard);
    if (!g) return g.error();
    hb.working = std::move(*g);
  }
  buffers_.push_back(std::move(hb));
  return Status::Ok();
}

Status CaseHarness::Setup(const CaseRequest& request) {
  buffers_.clear();
  variants_ = 1;
  for (const ParamArg& p : request.params)
    if (p.is_buffer) JUDGE_TRY(SetUpBuffer(p.buffer, request));
  fresh_variant_ = request.fresh_timed_inputs ? variants_ : -1;
  first_outputs_.Reset();
  if (!request.diagnostic && !request.noop && FirstOutputsWaitOnDevice(OutputBytes())) {
    auto held = DeviceBuffer::Allocate(device_, OutputBytes());
    if (!held) return held.error();
    first_outputs_ = std::move(*held);
  }
  auto timer = device_.CreateTimer();
  if (!timer) return timer.error();
  timer_ = std::move(*timer);
  if (!request.diagnostic) {
    auto info = device_.Info();
    if (!info) return info.error();
    peak_clock_mhz_ = info->sm_clock_mhz;
  }
  return device_.Synchronize();
}

Expected<EmptyWindow> MeasureEmptyWindow(Device& device, IntervalTimer& timer) {
  std::vector<double> event, wall;
  for (int i = 0; i < 7; ++i) {
    JUDGE_TRY(device.FlushCache());
    auto start = Clock::now();
    JUDGE_TRY(timer.Start());
    JUDGE_TRY(timer.Stop());
    JUDGE_TRY(device.Synchronize());
    wall.push_back(SecondsSince(start) * 1e3);
    auto ms = timer.ElapsedMs();
    if (!ms) return ms.error();
    event.push_back(*ms);
  }
  return EmptyWindow{Summarize(event).median, Summarize(wall).median};
}

// The same empty window in the submission's worker: for the audit (hidden work shows as a wall
// time the events did not see), never for the correction, which comes from the judge's own worker.
Status CaseHarness::Calibrate(CaseReport* report) {
  auto window = MeasureEmptyWindow(device_, *timer_);
  if (!window) return window.error();
  report->overhead_event_ms = window->event_ms;
  report->overhead_wall_ms = window->wall_ms;
  return Status::Ok();
}

size_t CaseHarness::OutputBytes() const { return OutputBytesPerCall(*request_); }

// Large outputs: the first call's during the calls; the last call's after them (Run), out of the
// exclusive turn and after call 0's, which output_calls lists first.
bool CaseHarness::KeepOutputs(int call) const { return OutputBytes() <= kSmallOutputBytesPerCall || call == 0; }

// Everything between the judge's `call` and this call's progress is on the judge's clock, and the
// judge's trusted calibration (a no-op solve() in a worker that never loaded a submission) does the
// same steps: generating the inputs here is the judge's share, not the submission's.
Status CaseHarness::PrepareFresh(int call) {
  channel_.Progress(ProgressMessage{ProgressStage::kAwaitCall, call, {}, std::nullopt});
  auto seeds = channel_.AwaitCall(call);
  if (!seeds) return seeds.error();
  size_t inputs = 0;
  for (const auto& b : buffers_) inputs += b.arg->HoldsInputData();
  if (seeds->size() != inputs)
    return MakeError(ErrorCode::kProtocol, "the judge sent " + std::to_string(seeds->size()) + " seeds for " +
                                               std::to_string(inputs) + " inputs");
  size_t i = 0;
  for (auto& b : buffers_) {
    if (!b.arg->HoldsInputData()) continue;
    InputSpec spec = b.arg->variants[0];
    spec.generate->seed = (*seeds)[i++];
    GuardedBuffer& fresh = b.sources[size_t(fresh_variant_)];
    JUDGE_TRY(Upload(spec, b.arg->dtype, b.arg->count, fresh.data, &fresh.checksum));
  }
  return Status::Ok();
}

Status CaseHarness::CopyOutputs(std::string* out) {
  for (const auto& b : buffers_) {
    if (!b.arg->IsChecked()) continue;
    const size_t at = out->size();  // straight into place: a large output is copied once
    out->resize(at + b.working->bytes);
    JUDGE_TRY(device_.CopyToHost(out->data() + at, b.working->data, b.working->bytes));
  }
  return Status::Ok();
}

// A kept fresh call's outputs, concatenated as CopyOutputs lays them out, into a device slot: a copy
// on the GPU while the timed case holds it, where one to pageable host memory took 0.1-0.2 s per
// 256 MiB (page faults included).
Status CaseHarness::CopyOutputsOnDevice(uint8_t* dst) {
  size_t at = 0;
  for (const auto& b : buffers_) {
    if (!b.arg->IsChecked()) continue;
    JUDGE_TRY(device_.CopyOnDevice(dst + at, b.working->data, b.working->bytes));
    at += b.working->bytes;
  }
  return device_.Synchronize();
}

Expected<uint64_t> CaseHarness::DigestOutputs() {
  std::vector<uint64_t> sums;
  for (const auto& b : buffers_) {
    if (!b.arg->IsChecked()) continue;
    auto sum = device_.Checksum(b.working->data, b.working->bytes);
    if (!sum) return sum.error();
    sums.push_back(*sum);
  }
  return OutputsDigest(sums);
}

Status CaseHarness::PrepareBuffers(int variant) {
  for (const auto& b : buffers_) {
    if (b.arg->role == Role::kOutput)
      JUDGE_TRY(device_.Fill(b.working->data, request_->zero_outputs ? 0 : kNanByte, b.working->bytes));
    else if (b.working)
      JUDGE_TRY(device_.CopyOnDevice(b.working->data, b.sources[size_t(variant)].data, b.working->bytes));
  }
  return device_.Synchronize();
}

// The outputs stop the judge's clock (a call cannot be said done before they exist): small ones
// travel with the progress; larger ones are held to their digest, made before it, and kept in a
// device slot if the judge draws the call (its reservoir of calls to check, case_runner.cc), to
// travel when it asks, after the timed calls.
Status CaseHarness::ReportFresh(ProgressMessage progress) {
  if (OutputBytes() <= kSmallOutputBytesPerCall) {
    JUDGE_TRY(CopyOutputs(&progress.outputs));
    channel_.Progress(progress);
    return Status::Ok();
  }
  auto digest = DigestOutputs();
  if (!digest) return digest.error();
  progress.digest = *digest;
  channel_.Progress(progress);
  auto slot = channel_.AwaitFetch(progress.calls - 1);
  if (!slot) return slot.error();
  return *slot ? CopyOutputsOnDevice(static_cast<uint8_t*>(*slot)) : Status::Ok();
}

Status CaseHarness::CheckMemory(int variant, int call, std::optional<Violation>* violation) {
  const std::string in_call = " (call " + std::to_string(call + 1) + ")";
  auto guards = [&](const GuardedBuffer& g, uint8_t byte, bool* before_ok, bool* after_ok) -> Status {
    const auto* base = static_cast<const uint8_t*>(g.allocation.get());
    JUDGE_TRY(ExpectFilled(device_, base, g.before, byte, before_ok));
    return ExpectFilled(device_, base + g.before + g.bytes, g.after, byte, after_ok);
  };
  for (const auto& b : buffers_) {
    const std::string& name = b.arg->name;
    bool before_ok = true, after_ok = true;
    if (!b.sources.empty()) {
      const GuardedBuffer& in = b.sources[size_t(variant)];
      if (!b.arg->Restored()) {
        auto sum = device_.Checksum(in.data, in.bytes);
        if (!sum) return sum.error();
        if (*sum != in.checksum) {
          *violation = Violation{"input_modified", call,
                                 "solve() modified its input " + name + " (it changed during call " +
                                     std::to_string(call + 1) + "); inputs are const"};
          return Status::Ok();
        }
      }
      JUDGE_TRY(guards(in, in.guard_byte, &before_ok, &after_ok));
      if (!before_ok || !after_ok) {
        *violation = Violation{"input_guard_written", call,
                               std::string("solve() wrote ") + (before_ok ? "past the end" : "before the start") +
                                   " of its input " + name + in_call};
        return Status::Ok();
      }
    }
    if (!b.working) continue;
    const bool output = b.arg->role == Role::kOutput;
    JUDGE_TRY(guards(*b.working, output ? kCanaryByte : b.working->guard_byte, &before_ok, &after_ok));
    if (!before_ok || !after_ok) {
      *violation = Violation{output ? "output_guard_written" : "input_guard_written", call,
                             std::string("solve() wrote ") + (before_ok ? "past the end" : "before the start") +
                                 (output                        ? " of output buffer "
                                  : b.arg->role == Role::kInOut ? " of its buffer "
                                                                : " of its input ") +
                                 name + " (out-of-bounds write, call " + std::to_string(call + 1) + ")"};
      return Status::Ok();
    }
  }
  return Status::Ok();
}

Status CaseHarness::Call(CallKind kind, int variant, CaseReport* report, std::string* outputs) {
  std::vector<CallArg> args;
  size_t buffer = 0;
  for (const ParamArg& p : request_->params) {
    CallArg a;
    if (!p.is_buffer) {
      a.kind = p.is_real ? CallArg::kFloat : CallArg::kInt;
      a.scalar = p.scalar;
      a.real = p.real;
    } else {
      const HarnessBuffer& b = buffers_[buffer++];
      a.pointer = b.working ? b.working->data : b.sources[size_t(variant)].data;
    }
    args.push_back(a);
  }
  JUDGE_TRY(PrepareBuffers(variant));
  // Warm-up and timed calls look the same to the submission: the same flush, the same events.
  // The flush is left running: the start event fires when it ends, by which time solve() has
  // queued its work, so host launch latency stays out of the event window (nvbench's blocking-
  // kernel idea, without its deadlock when solve() synchronizes). The wall clock includes the
  // flush; Calibrate() measures it the same way. Clock stamps bracket flush and call.
  const bool timed = !request_->diagnostic;
  if (timed) JUDGE_TRY(device_.MarkClock(0));
  if (timed && kind == CallKind::kHot)
    JUDGE_TRY(device_.HoldStream(kHotHoldMicroseconds));
  else if (timed)
    JUDGE_TRY(device_.FlushCache());
  // `judge profile`: the worker runs under `ncu --profile-from-start off`, which measures only the
  // kernels launched inside this range: solve()'s, none of the judge's. Closed after the checks
  // below, so an error solve() left is reported as its own.
  if (request_->profile) JUDGE_TRY(device_.SetProfilerRange(true));
  auto start = Clock::now();
  JUDGE_TRY(timer_->Start());
  if (!request_->noop) JUDGE_TRY(library_.Call(args));
  JUDGE_TRY(timer_->Stop());
  // Checked before the judge's next launch, which would otherwise report the submission's error as
  // its own (with the judge's call and source line in it). After Stop: the check stays out of the
  // timed window.
  if (auto st = device_.TakePendingError(); !st)
    return MakeError(st.error().code,
                     "solve() returned with a CUDA error pending: " + st.error().message +
                         " (a CUDA call or kernel launch inside solve() failed; check what each returns)");
  // From here a CUDA error is an asynchronous failure of the kernels solve() launched (a sticky
  // error such as an illegal address surfaces at the next launch or synchronize).
  auto of_solve = [](Status st) {
    if (st) return st;
    // Which of the judge's calls saw it says nothing to the submission's author: cut "(in ... at ...)".
    const std::string& m = st.error().message;
    return Status(MakeError(st.error().code, "the GPU work solve() queued failed: " + m.substr(0, m.find(" (in "))));
  };
  if (timed) JUDGE_TRY(of_solve(device_.MarkClock(1)));
  JUDGE_TRY(of_solve(device_.Synchronize()));
  double wall_ms = SecondsSince(start) * 1e3;
  if (request_->profile) JUDGE_TRY(of_solve(device_.SetProfilerRange(false)));
  std::fflush(nullptr);  // the submission's printf output reaches the judge with its case
  double clock_mhz = 0;
  if (timed) {
    auto mhz = device_.MarkedClockMhz();
    if (!mhz) return mhz.error();
    clock_mhz = *mhz;
  }
  auto event_ms = timer_->ElapsedMs();
  if (!event_ms) return event_ms.error();
  int index = int(report->calls.size());
  bool throttled = clock_mhz > 0 && peak_clock_mhz_ > 0 && clock_mhz < kThrottleFraction * peak_clock_mhz_;
  const bool fresh = variant == fresh_variant_;
  report->calls.push_back(CallRecord{kind, variant, *event_ms, wall_ms, clock_mhz, throttled, fresh});
  ProgressMessage progress{ProgressStage::kCall, index + 1, {}, std::nullopt};
  if (fresh) {
    // The memory checks come after the judge's clock stops: they would only make it noisier.
    JUDGE_TRY(ReportFresh(std::move(progress)));
    return CheckMemory(variant, index, &report->violation);
  }
  JUDGE_TRY(CheckMemory(variant, index, &report->violation));
  if (KeepOutputs(index)) {
    report->output_calls.push_back(index);
    if (index == 0 && first_outputs_.get())
      JUDGE_TRY(CopyOutputsOnDevice(static_cast<uint8_t*>(first_outputs_.get())));
    else
      JUDGE_TRY(CopyOutputs(outputs));
  }
  channel_.Progress(progress);
  return Status::Ok();
}

// Timed calls until the stop rule is met; throttled samples are discarded (up to kMaxDiscarded).
Status CaseHarness::Sample(CallKind kind, int* next, CaseOutput* out) {
  const TimingPolicy& policy = request_->timing;
  std::vector<double> samples;
  double spent = 0;
  int discarded = 0;
  while (!ShouldStopSampling(policy, samples, spent)) {
    int variant = (*next)++ % variants_;
    if (fresh_variant_ >= 0) {  // generating counts against the budget: on the host double it dominates
      auto prepare_start = Clock::now();
      JUDGE_TRY(PrepareFresh(int(out->report.calls.size())));
      spent += SecondsSince(prepare_start);
      variant = fresh_variant_;
    }
    JUDGE_TRY(Call(kind, variant, &out->report, &out->outputs));
    if (out->report.violation) return Status::Ok();
    const CallRecord& call = out->report.calls.back();
    spent += call.wall_ms / 1e3;
    if (call.throttled && discarded < kMaxDiscarded) {
      ++discarded;
      std::this_thread::sleep_for(kThrottleRecovery);
      continue;
    }
    samples.push_back(call.event_ms);
  }
  return Status::Ok();
}

std::variant<CaseOutput, CaseFault> CaseHarness::Run(const CaseRequest& request) {
  request_ = &request;
  auto setup_start = Clock::now();
  if (auto st = Setup(request); !st) return CaseFault{FaultPhase::kSetup, st.error().message};
  CaseOutput out;
  out.report.setup_ms = SecondsSince(setup_start) * 1e3;
  out.report.output_bytes_per_call = OutputBytesPerCall(request);
  if (auto st = Calibrate(&out.report); !st) return CaseFault{FaultPhase::kSetup, st.error().message};
  channel_.Progress(ProgressMessage{ProgressStage::kReady, 0, {}, std::nullopt});
  auto fail = [](const Status& st) {
    // A fresh call's seeds that do not arrive or do not fit are the judge's side of the exchange.
    if (st.error().code == ErrorCode::kProtocol) return CaseFault{FaultPhase::kProtocol, st.error().message};
    return CaseFault{FaultPhase::kSolve, st.error().message,
                     st.error().code == ErrorCode::kDeviceMemory ? FaultCause::kDeviceMemory : FaultCause::kOther};
  };
  bool sampled = false;
  if (auto st = RunCalls(&out, &sampled); !st) return fail(st);
  // Call 0's outputs (held whenever RunCalls got past it) come first in out.outputs, as
  // report.output_calls lists them: no other large outputs were kept during the calls (KeepOutputs).
  if (first_outputs_.get()) {
    out.outputs.resize(OutputBytes());
    if (auto st = device_.CopyToHost(out.outputs.data(), first_outputs_.get(), OutputBytes()); !st) return fail(st);
  }
  // The last call's output is always kept, even for large outputs (a fresh call's went with it).
  int last = int(out.report.calls.size()) - 1;
  if (sampled && !out.report.calls.back().fresh &&
      (out.report.output_calls.empty() || out.report.output_calls.back() != last)) {
    out.report.output_calls.push_back(last);
    if (auto st = CopyOutputs(&out.outputs); !st) return fail(st);
  }
  return out;
}

Status CaseHarness::RunCalls(CaseOutput* out, bool* sampled) {
  const CaseRequest& request = *request_;
  const TimingPolicy& policy = request.timing;
  auto start = Clock::now();
  JUDGE_TRY(Call(CallKind::kCheck, 0, &out->report, &out->outputs));
  if (request.diagnostic || out->report.violation) return Status::Ok();
  int next = 1;  // variant rotation: consecutive calls never see the same input when there are several
  // A first call that alone outlasts the case's timing budget is the case's only call: it was
  // flushed and timed like any other, and first-call effects (clock ramp-up, cold TLBs) take
  // microseconds, nothing beside seconds. This keeps a 3-second serial kernel from costing 15 s
  // per large case. Warm-up likewise stops at a tenth of the budget (ShouldWarmUp).
  if (out->report.calls.back().wall_ms / 1e3 >= policy.budget_seconds) return Status::Ok();
  for (int i = 0; ShouldWarmUp(policy, i, SecondsSince(start), out->report.calls.back().wall_ms / 1e3); ++i) {
    JUDGE_TRY(Call(CallKind::kWarmup, next++ % variants_, &out->report, &out->outputs));
    if (out->report.violation) return Status::Ok();
  }
  JUDGE_TRY(Sample(CallKind::kTimed, &next, out));
  if (out->report.violation) return Status::Ok();
  if (request.hot) {
    JUDGE_TRY(Sample(CallKind::kHot, &next, out));
    if (out->report.violation) return Status::Ok();
  }
  // Said before the held outputs are copied and sent: a large case_done takes the pipe a third of
  // a second per 256 MiB, time the judge can give another run's timed calls.
  channel_.Progress(ProgressMessage{ProgressStage::kSampled, int(out->report.calls.size()), {}, std::nullopt});
  *sampled = true;
  return Status::Ok();
}

}  // namespace judge

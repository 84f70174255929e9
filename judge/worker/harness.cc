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

Status CaseHarness::Setup(const CaseRequest& request) {
  inputs_.clear();
  outputs_.clear();
  variants_ = 1;
  for (const ParamArg& p : request.params) {
    if (!p.is_buffer) continue;
    size_t bytes = size_t(p.buffer.count) * DTypeSize(p.buffer.dtype);
    if (!p.buffer.is_input) {
      auto g = Allocate(bytes, kCanary, kCanary, kCanaryByte);
      if (!g) return g.error();
      outputs_.push_back(std::move(*g));
      continue;
    }
    std::vector<GuardedBuffer> variants;
    for (const InputSpec& spec : p.buffer.variants) {
      auto g = Allocate(bytes, kGuardBefore, kInputGuardAfter, request.guard_nan ? kNanByte : 0);
      if (!g) return g.error();
      JUDGE_TRY(Upload(spec, p.buffer.dtype, p.buffer.count, g->data, &g->checksum));
      variants.push_back(std::move(*g));
    }
    if (variants.empty()) return MakeError(ErrorCode::kProtocol, "input " + p.buffer.name + " has no data");
    variants_ = int(variants.size());
    if (request.fresh_timed_inputs) {
      if (!p.buffer.variants[0].generate)
        return MakeError(ErrorCode::kProtocol,
                         "fresh inputs asked for input " + p.buffer.name + ", which has no generator");
      auto g = Allocate(bytes, kGuardBefore, kInputGuardAfter, request.guard_nan ? kNanByte : 0);
      if (!g) return g.error();
      variants.push_back(std::move(*g));  // filled before each fresh call
    }
    inputs_.push_back(std::move(variants));
  }
  fresh_variant_ = request.fresh_timed_inputs ? variants_ : -1;
  if (request.fresh_timed_inputs && OutputBytesPerCall(request) > kSmallOutputBytesPerCall)
    return MakeError(ErrorCode::kProtocol, "fresh inputs asked for a case whose outputs are not small");
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

bool CaseHarness::KeepOutputs(int call) const {
  size_t per_call = 0;
  for (const auto& o : outputs_) per_call += o.bytes;
  return per_call <= kSmallOutputBytesPerCall || call == 0 || call == planned_calls_ - 1;
}

// Everything between the judge's `call` and this call's progress is on the judge's clock, and the
// judge's trusted calibration (a no-op solve() in a worker that never loaded a submission) does the
// same steps: generating the inputs here is the judge's share, not the submission's.
Status CaseHarness::PrepareFresh(int call) {
  progress_(ProgressMessage{ProgressStage::kAwaitCall, call, {}});
  auto seeds = await_call_(call);
  if (!seeds) return seeds.error();
  if (seeds->size() != inputs_.size())
    return MakeError(ErrorCode::kProtocol, "the judge sent " + std::to_string(seeds->size()) + " seeds for " +
                                               std::to_string(inputs_.size()) + " inputs");
  size_t i = 0;
  for (const ParamArg& p : request_->params) {
    if (!p.is_buffer || !p.buffer.is_input) continue;
    InputSpec spec = p.buffer.variants[0];
    spec.generate->seed = (*seeds)[i];
    GuardedBuffer& fresh = inputs_[i][size_t(fresh_variant_)];
    JUDGE_TRY(Upload(spec, p.buffer.dtype, p.buffer.count, fresh.data, &fresh.checksum));
    ++i;
  }
  return Status::Ok();
}

Status CaseHarness::CopyOutputs(std::string* out) {
  for (const auto& o : outputs_) {
    std::string bytes(o.bytes, '\0');
    JUDGE_TRY(device_.CopyToHost(bytes.data(), o.data, bytes.size()));
    *out += bytes;
  }
  return Status::Ok();
}

Status CaseHarness::CheckMemory(int variant, int call, std::optional<Violation>* violation) {
  size_t index = 0;
  for (const auto& per_input : inputs_) {
    const GuardedBuffer& in = per_input[size_t(variant)];
    auto sum = device_.Checksum(in.data, in.bytes);
    if (!sum) return sum.error();
    if (*sum != in.checksum) {
      *violation = Violation{"input_modified", call,
                             "solve() modified its input (input buffer #" + std::to_string(index) +
                                 " changed during call " + std::to_string(call + 1) + "); inputs are const"};
      return Status::Ok();
    }
    bool before_ok = false, after_ok = false;
    const auto* base = static_cast<const uint8_t*>(in.allocation.get());
    JUDGE_TRY(ExpectFilled(device_, base, in.before, in.guard_byte, &before_ok));
    JUDGE_TRY(ExpectFilled(device_, base + in.before + in.bytes, in.after, in.guard_byte, &after_ok));
    if (!before_ok || !after_ok) {
      *violation = Violation{"input_guard_written", call,
                             std::string("solve() wrote ") + (before_ok ? "past the end" : "before the start") +
                                 " of its input (call " + std::to_string(call + 1) + ")"};
      return Status::Ok();
    }
    ++index;
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const GuardedBuffer& out = outputs_[i];
    const auto* base = static_cast<const uint8_t*>(out.allocation.get());
    bool before_ok = false, after_ok = false;
    JUDGE_TRY(ExpectFilled(device_, base, out.before, kCanaryByte, &before_ok));
    JUDGE_TRY(ExpectFilled(device_, base + out.before + out.bytes, out.after, kCanaryByte, &after_ok));
    if (!before_ok || !after_ok) {
      *violation = Violation{"output_guard_written", call,
                             std::string("solve() wrote ") + (before_ok ? "past the end" : "before the start") +
                                 " of output buffer #" + std::to_string(i) + " (out-of-bounds write, call " +
                                 std::to_string(call + 1) + ")"};
      return Status::Ok();
    }
  }
  return Status::Ok();
}

Status CaseHarness::Call(CallKind kind, int variant, CaseReport* report, std::string* outputs) {
  std::vector<CallArg> args;
  size_t in = 0, out = 0;
  for (const ParamArg& p : request_->params) {
    CallArg a;
    if (!p.is_buffer) {
      a.is_pointer = false;
      a.scalar = p.scalar;
    } else if (p.buffer.is_input)
      a.pointer = inputs_[in++][size_t(variant)].data;
    else
      a.pointer = outputs_[out++].data;
    args.push_back(a);
  }
  for (const auto& o : outputs_) JUDGE_TRY(device_.Fill(o.data, request_->zero_outputs ? 0 : kNanByte, o.bytes));
  JUDGE_TRY(device_.Synchronize());
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
  ProgressMessage progress{ProgressStage::kCall, index + 1, {}};
  if (fresh) {
    // The outputs stop the judge's clock (a call cannot be said done before they exist); the
    // memory checks come after, off that clock, which they would only make noisier.
    JUDGE_TRY(CopyOutputs(&progress.outputs));
    progress_(progress);
    return CheckMemory(variant, index, &report->violation);
  }
  JUDGE_TRY(CheckMemory(variant, index, &report->violation));
  if (KeepOutputs(index)) {
    report->output_calls.push_back(index);
    JUDGE_TRY(CopyOutputs(outputs));
  }
  progress_(progress);
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
  const TimingPolicy& policy = request.timing;
  planned_calls_ = request.diagnostic ? 1 : 1 + policy.warmup_calls + policy.max_samples * (request.hot ? 2 : 1);
  progress_(ProgressMessage{ProgressStage::kReady, 0, {}});
  auto fail = [](const Status& st) {
    // A fresh call's seeds that do not arrive or do not fit are the judge's side of the exchange.
    if (st.error().code == ErrorCode::kProtocol) return CaseFault{FaultPhase::kProtocol, st.error().message};
    return CaseFault{FaultPhase::kSolve, st.error().message,
                     st.error().code == ErrorCode::kDeviceMemory ? FaultCause::kDeviceMemory : FaultCause::kOther};
  };
  auto start = Clock::now();
  if (auto st = Call(CallKind::kCheck, 0, &out.report, &out.outputs); !st) return fail(st);
  if (request.diagnostic || out.report.violation) return out;
  int next = 1;  // variant rotation: consecutive calls never see the same input when there are several
  // A first call that alone outlasts the case's timing budget is the case's only call: it was
  // flushed and timed like any other, and first-call effects (clock ramp-up, cold TLBs) take
  // microseconds, nothing beside seconds. This keeps a 3-second serial kernel from costing 15 s
  // per large case. Warm-up likewise stops at a tenth of the budget (ShouldWarmUp).
  if (out.report.calls.back().wall_ms / 1e3 >= policy.budget_seconds) return out;
  for (int i = 0; ShouldWarmUp(policy, i, SecondsSince(start), out.report.calls.back().wall_ms / 1e3); ++i) {
    if (auto st = Call(CallKind::kWarmup, next++ % variants_, &out.report, &out.outputs); !st) return fail(st);
    if (out.report.violation) return out;
  }
  if (auto st = Sample(CallKind::kTimed, &next, &out); !st) return fail(st);
  if (out.report.violation) return out;
  if (request.hot) {
    if (auto st = Sample(CallKind::kHot, &next, &out); !st) return fail(st);
    if (out.report.violation) return out;
  }
  // The last call's output is always kept, even for large outputs (a fresh call's went with it).
  int last = int(out.report.calls.size()) - 1;
  if (!out.report.calls.back().fresh && (out.report.output_calls.empty() || out.report.output_calls.back() != last)) {
    out.report.output_calls.push_back(last);
    if (auto st = CopyOutputs(&out.outputs); !st) return fail(st);
  }
  return out;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/worker/harness.h"

#include <chrono>
#include <cstdio>

#include "judge/measure/sample_stats.h"
#include "judge/testcase/generate.h"

namespace judge {
namespace {

using Clock = std::chrono::steady_clock;
double SecondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// 0xFF bytes are NaN as float32 and -1 as int32: an output the submission never writes cannot pass.
constexpr uint8_t kPoisonByte = 0xFF;

}  // namespace

Status CaseHarness::Setup(const CaseRequest& request) {
  buffers_.clear();
  args_.clear();
  output_indices_.clear();
  for (const ParamArg& p : request.params) {
    CallArg arg;
    if (!p.is_buffer) {
      arg.is_pointer = false;
      arg.scalar = p.scalar;
      args_.push_back(arg);
      continue;
    }
    size_t bytes = size_t(p.buffer.count) * DTypeSize(p.buffer.dtype);
    auto buf = DeviceBuffer::Allocate(device_, bytes);
    if (!buf) return buf.error();
    if (p.buffer.is_input) {
      HostBytes host = MaterializeInput(p.buffer.input.value_or(InputSpec{}), p.buffer.dtype, p.buffer.count);
      JUDGE_TRY(device_.CopyToDevice(buf->get(), host.data(), bytes));
    } else {
      output_indices_.push_back(buffers_.size());
    }
    arg.pointer = buf->get();
    args_.push_back(arg);
    buffers_.push_back(std::move(*buf));
  }
  return device_.Synchronize();
}

Status CaseHarness::CallOnce() {
  JUDGE_TRY(library_.Call(args_));
  JUDGE_TRY(device_.Synchronize());
  std::fflush(nullptr);  // the submission's printf output reaches the judge with its case
  progress_("call", ++calls_);
  return Status::Ok();
}

Status CaseHarness::CopyOutputs(std::string* out) {
  out->clear();
  for (size_t i : output_indices_) {
    std::string bytes(buffers_[i].bytes(), '\0');
    JUDGE_TRY(device_.CopyToHost(bytes.data(), buffers_[i].get(), bytes.size()));
    *out += bytes;
  }
  return Status::Ok();
}

Status CaseHarness::TimeCalls(const TimingPolicy& policy, CaseTimings* timings) {
  auto timer = device_.CreateTimer();
  if (!timer) return timer.error();
  auto warm_start = Clock::now();
  for (int i = 0; i < policy.warmup_calls && SecondsSince(warm_start) < policy.budget_seconds; ++i) {
    JUDGE_TRY(CallOnce());
    ++timings->warmup_calls;
  }
  double spent = 0;
  while (!ShouldStopSampling(policy, timings->event_ms, spent)) {
    JUDGE_TRY(device_.FlushCache());
    auto wall_start = Clock::now();
    JUDGE_TRY((*timer)->Start());
    JUDGE_TRY(library_.Call(args_));
    JUDGE_TRY((*timer)->Stop());
    JUDGE_TRY(device_.Synchronize());
    double wall_ms = SecondsSince(wall_start) * 1e3;
    auto event_ms = (*timer)->ElapsedMs();
    if (!event_ms) return event_ms.error();
    timings->event_ms.push_back(*event_ms);
    timings->wall_ms.push_back(wall_ms);
    spent += wall_ms / 1e3;
    progress_("call", ++calls_);
  }
  return Status::Ok();
}

std::variant<CaseOutput, CaseFault> CaseHarness::Run(const CaseRequest& request) {
  calls_ = 0;
  if (auto st = Setup(request); !st) return CaseFault{FaultPhase::kSetup, st.error().message};
  for (size_t i : output_indices_) {
    if (auto st = device_.Fill(buffers_[i].get(), kPoisonByte, buffers_[i].bytes()); !st)
      return CaseFault{FaultPhase::kSetup, st.error().message};
  }
  progress_("ready", 0);
  CaseOutput out;
  if (auto st = CallOnce(); !st) return CaseFault{FaultPhase::kSolve, st.error().message};
  if (auto st = CopyOutputs(&out.first_outputs); !st) return CaseFault{FaultPhase::kSolve, st.error().message};
  if (auto st = TimeCalls(request.timing, &out.timings); !st) return CaseFault{FaultPhase::kSolve, st.error().message};
  if (auto st = CopyOutputs(&out.last_outputs); !st) return CaseFault{FaultPhase::kSolve, st.error().message};
  return out;
}

}  // namespace judge

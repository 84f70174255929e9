// SPDX-License-Identifier: MIT
#pragma once
// Runs one case inside the worker. Every buffer is guarded:
//   input:  [4 KiB guard][data][64 KiB guard]   guards hold NaN (or zeros for a diagnostic rerun),
//           so a kernel that reads past N gets a different answer; several variants of each input
//           (different data, different sums) rotate across calls.
//   output: [4 KiB canary][data][4 KiB canary]  canaries hold 0xA5 bytes; data is poisoned with
//           0xFF bytes (NaN) before every call, so an unwritten output cannot pass.
// After every call (outside the timed window) the worker checks the input's checksum, the input's
// guards and the output's canaries, and keeps the call's output for the judge to check.
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "judge/device/device.h"
#include "judge/protocol/messages.h"
#include "judge/worker/library.h"

namespace judge {

// Where a failure happened decides whose fault it is: before the first solve() it is the judge's
// (kSetup), from the first solve() on it is the submission's (kSolve).
struct CaseFault {
  FaultPhase phase;
  std::string message;
  FaultCause cause = FaultCause::kOther;
};

struct CaseOutput {
  CaseReport report;
  std::string outputs;  // report.output_calls' outputs, concatenated
};

// A device allocation with guard regions on both sides of the part the submission gets.
struct GuardedBuffer {
  DeviceBuffer allocation;
  void* data = nullptr;  // what solve() receives
  size_t bytes = 0;      // of data
  size_t before = 0, after = 0;
  uint8_t guard_byte = 0;
  uint64_t checksum = 0;  // of data, inputs only
};

// An event window with nothing in it, after the same flush as a timed call (median of 7): what the
// events cost by themselves (event_ms), and flush plus synchronisation on the host clock (wall_ms).
struct EmptyWindow {
  double event_ms = 0, wall_ms = 0;
};
Expected<EmptyWindow> MeasureEmptyWindow(Device& device, IntervalTimer& timer);

class CaseHarness {
 public:
  using ProgressFn = std::function<void(const ProgressMessage& progress)>;
  // Blocks until the judge sends the seeds of fresh call `call` (CallMessage).
  using AwaitCallFn = std::function<Expected<std::vector<uint64_t>>(int call)>;
  CaseHarness(Device& device, const SubmissionLibrary& library, ProgressFn progress, AwaitCallFn await_call)
      : device_(device), library_(library), progress_(std::move(progress)), await_call_(std::move(await_call)) {}
  std::variant<CaseOutput, CaseFault> Run(const CaseRequest& request);

 private:
  Status Setup(const CaseRequest& request);
  // Writes an input to dst and sets *checksum to Device::Checksum() of it.
  Status Upload(const InputSpec& spec, DType dtype, int64_t count, void* dst, uint64_t* checksum);
  Expected<GuardedBuffer> Allocate(size_t bytes, size_t before, size_t after, uint8_t guard_byte);
  Status Calibrate(CaseReport* report);
  // One call of solve() on `variant`, with its checks; sets *violation when memory was abused.
  Status Call(CallKind kind, int variant, CaseReport* report, std::string* outputs);
  // Waits for the judge's seeds of call `call` and generates the fresh inputs from them.
  Status PrepareFresh(int call);
  Status CheckMemory(int variant, int call, std::optional<Violation>* violation);
  Status Sample(CallKind kind, int* next, CaseOutput* out);
  Status CopyOutputs(std::string* out);
  bool KeepOutputs(int call) const;

  Device& device_;
  const SubmissionLibrary& library_;
  ProgressFn progress_;
  AwaitCallFn await_call_;
  const CaseRequest* request_ = nullptr;
  std::unique_ptr<IntervalTimer> timer_;
  std::vector<std::vector<GuardedBuffer>> inputs_;  // [input][variant]; the last is the fresh one when used
  std::vector<GuardedBuffer> outputs_;
  int variants_ = 1;        // rotated across check and warm-up calls (and timed ones without fresh inputs)
  int fresh_variant_ = -1;  // the index of the fresh buffers in inputs_[i], or -1
  int planned_calls_ = 0;
  double peak_clock_mhz_ = 0;  // 0: the device cannot tell, nothing is judged throttled
};

}  // namespace judge

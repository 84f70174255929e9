// SPDX-License-Identifier: MIT
#pragma once
// Runs one case inside the worker. Every buffer is guarded:
//   input:  [4 KiB guard][data][64 KiB guard]   guards hold NaN (or zeros for a diagnostic rerun),
//           so a kernel that reads past N gets a different answer; several variants of each input
//           (different data, different sums) rotate across calls.
//   output: [4 KiB canary][data][4 KiB canary]  canaries hold 0xA5 bytes; data is poisoned with
//           0xFF bytes (NaN) before every call, so an unwritten output cannot pass.
//   inout, or an input solve() may overwrite: the variants as inputs, and a working buffer laid out
//           like an input that solve() gets, into which the call's variant is copied before it.
// After every call (outside the timed window) the worker checks each const input's checksum, every
// guard and canary, and keeps the call's outputs for the judge to check.
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

// The harness's side of the exchange with the judge during a case: the worker's pipes.
class CaseChannel {
 public:
  virtual ~CaseChannel() = default;
  virtual void Progress(const ProgressMessage& progress) = 0;
  // Blocks until the judge sends the seeds of fresh call `call` (CallMessage).
  virtual Expected<std::vector<uint64_t>> AwaitCall(int call) = 0;
  // Blocks until the judge says whether to keep fresh call `call`'s outputs (FetchMessage): the
  // device buffer to copy them into (the slot it names, one of the request's kept_slots), or null.
  virtual Expected<void*> AwaitFetch(int call) = 0;
};

// One buffer of the signature as the harness holds it.
struct HarnessBuffer {
  const BufferArg* arg = nullptr;
  std::vector<GuardedBuffer> sources;    // input data: its variants, then the fresh buffer when used
  std::optional<GuardedBuffer> working;  // what solve() gets when it may write: outputs, inout, writable
};

class CaseHarness {
 public:
  CaseHarness(Device& device, const SubmissionLibrary& library, CaseChannel& channel)
      : device_(device), library_(library), channel_(channel) {}
  std::variant<CaseOutput, CaseFault> Run(const CaseRequest& request);

 private:
  Status Setup(const CaseRequest& request);
  Status SetUpBuffer(const BufferArg& arg, const CaseRequest& request);
  // Writes an input to dst and sets *checksum to Device::Checksum() of it.
  Status Upload(const InputSpec& spec, DType dtype, int64_t count, void* dst, uint64_t* checksum);
  Expected<GuardedBuffer> Allocate(size_t bytes, size_t before, size_t after, uint8_t guard_byte);
  Status Calibrate(CaseReport* report);
  // One call of solve() on `variant`, with its checks; sets *violation when memory was abused.
  Status Call(CallKind kind, int variant, CaseReport* report, std::string* outputs);
  // Waits for the judge's seeds of call `call` and generates the fresh inputs from them.
  Status PrepareFresh(int call);
  // Before a call: outputs poisoned, the variant's data copied where solve() may change it.
  Status PrepareBuffers(int variant);
  // After a fresh call: its outputs with its progress (small), or their digest and, if the judge
  // asks, the outputs themselves after it.
  Status ReportFresh(ProgressMessage progress);
  Status CheckMemory(int variant, int call, std::optional<Violation>* violation);
  Status Sample(CallKind kind, int* next, CaseOutput* out);
  // The calls of Run after the setup; *sampled when the timed calls ran to their end (no violation,
  // not a single call).
  Status RunCalls(CaseOutput* out, bool* sampled);
  Status CopyOutputs(std::string* out);
  Status CopyOutputsOnDevice(uint8_t* dst);
  Expected<uint64_t> DigestOutputs();
  bool KeepOutputs(int call) const;
  size_t OutputBytes() const;

  Device& device_;
  const SubmissionLibrary& library_;
  CaseChannel& channel_;
  const CaseRequest* request_ = nullptr;
  std::unique_ptr<IntervalTimer> timer_;
  std::vector<HarnessBuffer> buffers_;  // the signature's buffers, in order
  int variants_ = 1;                    // rotated across check and warm-up calls (and timed ones without fresh inputs)
  int fresh_variant_ = -1;              // the index of the fresh buffer in each HarnessBuffer's sources, or -1
  DeviceBuffer first_outputs_;          // call 0's outputs until the timed calls end (FirstOutputsWaitOnDevice)
  double peak_clock_mhz_ = 0;           // 0: the device cannot tell, nothing is judged throttled
};

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// Runs one case inside the worker: allocate and fill the buffers, make one untimed correctness
// call on a poisoned output, warm up, then time cold calls until the stopping rule says enough.
#include <functional>
#include <string>

#include "judge/device/device.h"
#include "judge/protocol/messages.h"
#include "judge/worker/library.h"

namespace judge {

// Where a failure happened decides whose fault it is: before the first solve() it is the judge's
// (setup), from the first solve() on it is the submission's.
enum class FaultPhase { kSetup, kSolve };

struct CaseFault {
  FaultPhase phase;
  std::string message;
};

struct CaseOutput {
  CaseTimings timings;
  std::string first_outputs;  // output buffers after the correctness call, concatenated
  std::string last_outputs;   // output buffers after the last timed call
};

class CaseHarness {
 public:
  using ProgressFn = std::function<void(const std::string& stage, int calls_done)>;
  CaseHarness(Device& device, const SubmissionLibrary& library, ProgressFn progress)
      : device_(device), library_(library), progress_(std::move(progress)) {}
  // Returns the outputs, or the fault that stopped the case.
  std::variant<CaseOutput, CaseFault> Run(const CaseRequest& request);

 private:
  Status CallOnce();
  Status CopyOutputs(std::string* out);
  Status Setup(const CaseRequest& request);
  Status TimeCalls(const TimingPolicy& policy, CaseTimings* timings);

  Device& device_;
  const SubmissionLibrary& library_;
  ProgressFn progress_;
  std::vector<DeviceBuffer> buffers_;
  std::vector<CallArg> args_;
  std::vector<size_t> output_indices_;  // into buffers_
  int calls_ = 0;
};

}  // namespace judge

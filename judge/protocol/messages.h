// SPDX-License-Identifier: MIT
#pragma once
// The messages of the judge<->worker protocol (framing in frame.h). The judge sends:
//   init {device}                 -> device {info...}            | fault {phase:"init"}
//   load {library, entry_point}   -> sandboxed {protections}, then loaded | fault {phase:"load"}
//   case {CaseRequest}            -> progress* then case_done    | fault {phase:"setup"|"solve"}
//   ceiling                       -> ceiling {gbps}              | fault {phase:"setup"}
// `progress` follows every completed solve() call, so the judge applies the per-call deadline to
// each call separately. The worker never receives expected results.
#include <optional>
#include <string>
#include <vector>

#include "judge/device/device.h"
#include "judge/problem/problem.h"
#include "judge/testcase/testcase.h"
#include "judge/util/json_fields.h"

namespace judge {

struct BufferArg {
  std::string name;
  bool is_input = true;
  DType dtype = DType::kFloat32;
  int64_t count = 0;
  // Inputs only: one or more variants of the data; calls rotate through them so that no two
  // consecutive calls see the same input (defeats result caching).
  std::vector<InputSpec> variants;
};

struct ParamArg {
  bool is_buffer = true;
  BufferArg buffer;
  int32_t scalar = 0;
};

struct CaseRequest {
  std::string name;
  std::vector<ParamArg> params;  // signature order
  TimingPolicy timing;
  bool guard_nan = true;         // memory after each input holds NaN (else zeros): reads past the end show
  bool zero_outputs = false;     // outputs start at zero (else poisoned with 0xFF bytes = NaN)
  bool diagnostic = false;       // one call, no warm-up or timing (used to explain a failure)
  bool hot = false;              // after the cold samples, time calls without the cache flush too
};

enum class CallKind { kCheck, kWarmup, kTimed, kHot };  // kHot: timed without the L2 flush
std::string_view CallKindName(CallKind k);

struct CallRecord {
  CallKind kind = CallKind::kCheck;
  int variant = 0;
  double event_ms = 0;  // device time between events around solve()
  double wall_ms = 0;   // host time from before the start event to after a device-wide sync
  double clock_mhz = 0; // average SM clock around the call (0: unknown)
  bool throttled = false;  // the clock was under the throttle threshold: not a sample
};

// Something the submission did to memory it does not own (or must not change).
struct Violation {
  std::string kind;     // input_modified | input_guard_written | output_guard_written
  int call = 0;         // index into the calls
  std::string message;
};

// What the worker reports for a case (outputs travel in the frame's blob).
struct CaseReport {
  std::vector<CallRecord> calls;
  std::vector<int> output_calls;  // the calls whose outputs are in the blob, in order
  size_t output_bytes_per_call = 0;
  double overhead_event_ms = 0, overhead_wall_ms = 0;  // an empty event window, for calibration
  double setup_ms = 0;  // allocating, generating and uploading the inputs (the judge's own time)
  std::optional<Violation> violation;
};

Json CaseReportToJson(const CaseReport& r);
Expected<CaseReport> CaseReportFromJson(const Json& j);  // validates: the worker is untrusted

Json CaseRequestToJson(const CaseRequest& r);
Expected<CaseRequest> CaseRequestFromJson(const Json& j);
Json DeviceInfoToJson(const DeviceInfo& info);
DeviceInfo DeviceInfoFromJson(const Json& j);

}  // namespace judge

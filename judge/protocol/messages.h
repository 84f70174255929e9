// SPDX-License-Identifier: MIT
#pragma once
// The messages of the judge<->worker protocol (framing in frame.h). The judge sends:
//   init {device}                 -> device {info...}            | fault {phase:"init"}
//   load {library, entry_point}   -> loaded                      | fault {phase:"load"}
//   case {CaseRequest}            -> progress* then case_done    | fault {phase:"setup"|"solve"}
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
  std::optional<InputSpec> input;  // inputs only
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
};

// The worker's answer, decoded and validated by the judge.
struct CaseTimings {
  std::vector<double> event_ms;  // device time of each timed call
  std::vector<double> wall_ms;   // host wall time of each timed call, including a full sync
  int warmup_calls = 0;
};

Json CaseRequestToJson(const CaseRequest& r);
Expected<CaseRequest> CaseRequestFromJson(const Json& j);
Json DeviceInfoToJson(const DeviceInfo& info);
DeviceInfo DeviceInfoFromJson(const Json& j);

}  // namespace judge

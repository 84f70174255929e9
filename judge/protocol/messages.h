// SPDX-License-Identifier: MIT
#pragma once
// Every message of the judge<->worker protocol, typed, with its encoding in messages.cc and nowhere
// else (framing in frame.h). The exchange (protocol_test checks that this list names every kind):
//   judge -> worker      worker -> judge
//   init                 device                        | fault(init)
//   load                 sandboxed, then loaded        | fault(load)
//   case                 progress* then case_done      | fault(setup | solve)
//   call                 (answers progress(await_call): the seeds of one fresh timed call)
//   fetch                nothing                       (answers a large fresh call's progress)
//   send_kept            call_outputs per kept slot    (after case_done: the calls fetch kept)
//   ceiling              ceiling_measured              | fault(setup)
//   (anything else)                                      fault(protocol)
// `progress` follows every completed solve() call, so the judge applies the per-call deadline to
// each call separately. With fresh timed inputs, each timed call waits for the judge's `call`: its
// inputs are generated from seeds sent only then, and the judge times the call on its own clock,
// from sending `call` to the `progress` that carries the call's outputs (docs/SECURITY.md). Outputs
// larger than kSmallOutputBytesPerCall do not travel with every call: that progress carries their
// digest instead, and the judge answers `fetch`, telling the worker to keep the outputs of a random
// draw of calls in device slots (off its clock: the digest, made before the clock stopped, holds
// them to what they were then; the request's kept_slots says how many to make). They reach host
// memory and cross the pipe only when the judge asks (`send_kept`), after the timed calls, so
// neither is in the GPU's exclusive turn (supervise/gpu_turns.h).
// The worker never receives expected results. A frame from the worker is untrusted (a submission can write to its fd):
// Decode validates every field before use.
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "judge/device/device.h"
#include "judge/problem/problem.h"
#include "judge/protocol/frame.h"
#include "judge/sandbox/sandbox.h"
#include "judge/testcase/testcase.h"
#include "judge/util/json_fields.h"

namespace judge {

struct BufferArg {
  std::string name;
  Role role = Role::kInput;
  bool writable = false;  // an input solve() may overwrite
  DType dtype = DType::kFloat32;
  int64_t count = 0;
  // Buffers holding input data only: one or more variants of the data; calls rotate through them
  // so that no two consecutive calls see the same input (defeats result caching).
  std::vector<InputSpec> variants;
  bool HoldsInputData() const { return role != Role::kOutput; }
  bool IsChecked() const { return role != Role::kInput; }
  // The worker copies the data into the buffer solve() gets before every call: solve() may change it.
  bool Restored() const { return role == Role::kInOut || writable; }
};

struct ParamArg {
  bool is_buffer = true;
  BufferArg buffer;
  int32_t scalar = 0;    // an int scalar
  bool is_real = false;  // a float scalar: `real`
  float real = 0;
};

struct CaseRequest {
  std::string name;
  std::vector<ParamArg> params;  // signature order
  TimingPolicy timing;
  bool guard_nan = true;      // memory after each input holds NaN (else zeros): reads past the end show
  bool zero_outputs = false;  // outputs start at zero (else poisoned with 0xFF bytes = NaN)
  bool diagnostic = false;    // one call, no warm-up or timing (used to explain a failure)
  bool hot = false;           // after the cold samples, time calls without the cache flush too
  // Timed calls wait for a `call` message and generate their inputs from its seeds (every input
  // has a generator): no timed call's data exists before the judge's clock starts.
  bool fresh_timed_inputs = false;
  // Large fresh calls' outputs the judge may ask the worker to keep (FetchMessage's slots): device
  // buffers it makes before the first call, so that keeping one during the timed calls is a copy on
  // the GPU; they reach host memory only when the judge sends send_kept, after the timed calls.
  int kept_slots = 0;
  // The judge's trusted calibration: the same case with the harness's empty function as solve(),
  // in a worker that never loaded a submission (refused by one that did).
  bool noop = false;
  // `judge profile`: the one (diagnostic) call runs inside the profiler's range, so a worker under
  // `ncu --profile-from-start off` measures solve()'s kernels and none of the judge's.
  bool profile = false;
};

enum class CallKind { kCheck, kWarmup, kTimed, kHot };  // kHot: timed without the L2 flush
std::string_view CallKindName(CallKind k);

struct CallRecord {
  CallKind kind = CallKind::kCheck;
  int variant = 0;
  double event_ms = 0;     // device time between events around solve()
  double wall_ms = 0;      // host time from before the start event to after a device-wide sync
  double clock_mhz = 0;    // average SM clock around the call (0: unknown)
  bool throttled = false;  // the clock was under the throttle threshold: not a sample
  bool fresh = false;      // inputs generated from the call's own seeds (variant: the fresh buffer)
};

// Something the submission did to memory it does not own (or must not change).
struct Violation {
  std::string kind;  // input_modified | input_guard_written | output_guard_written
  int call = 0;      // index into the calls
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

// Outputs up to this size per call travel with every call (larger ones: the first and last calls'
// only); fresh timed inputs need them with every call, so only cases within it get them.
inline constexpr size_t kSmallOutputBytesPerCall = 64 * 1024;
inline constexpr int kMaxKeptSlots = 64;  // a request asking for more is malformed
// A timed case's first call is checked, and with outputs over kSmallOutputBytesPerCall copying them
// to pageable host memory takes 0.1-0.2 s per 256 MiB (page faults): the harness parks them in a
// device buffer of their size and copies them to the host after the timed calls, out of the GPU's
// exclusive turn. The judge counts that buffer in a case's device memory (DeviceBytesOfCase).
inline bool FirstOutputsWaitOnDevice(size_t output_bytes_per_call) {
  return output_bytes_per_call > kSmallOutputBytesPerCall;
}

// The output bytes one call produces for `request`: all output buffers, in signature order. The
// worker sizes its copies by it and the judge checks what came back against it.
size_t OutputBytesPerCall(const CaseRequest& request);
// The input data one call reads: every buffer holding it (inputs, inout), in signature order.
int64_t InputBytesPerCall(const CaseRequest& request);

// The digest of one call's outputs from each checked buffer's Checksum, in signature order: what
// a large fresh call's progress carries and what its fetched outputs must give again.
uint64_t OutputsDigest(const std::vector<uint64_t>& buffer_checksums);

// --- The messages -------------------------------------------------------------------------------

enum class MessageKind {
  kInit,
  kDevice,
  kLoad,
  kSandboxed,
  kLoaded,
  kCase,
  kProgress,
  kCaseDone,
  kCeiling,
  kCeilingMeasured,
  kFault,
  kCall,
  kFetch,
  kSendKept,
  kCallOutputs
};
std::string_view MessageKindName(MessageKind kind);  // the wire's "type"
inline constexpr MessageKind kAllMessageKinds[] = {MessageKind::kInit,       MessageKind::kDevice,
                                                   MessageKind::kLoad,       MessageKind::kSandboxed,
                                                   MessageKind::kLoaded,     MessageKind::kCase,
                                                   MessageKind::kProgress,   MessageKind::kCaseDone,
                                                   MessageKind::kCeiling,    MessageKind::kCeilingMeasured,
                                                   MessageKind::kFault,      MessageKind::kCall,
                                                   MessageKind::kFetch,      MessageKind::kSendKept,
                                                   MessageKind::kCallOutputs};

// Where a worker failed; whose fault that is follows from it (judge/rules/case_verdict.h).
enum class FaultPhase { kInit, kLoad, kSetup, kSolve, kProtocol };
std::string_view FaultPhaseName(FaultPhase phase);
// What kind of failure, where the phase alone does not say (a device allocation failing in solve()
// is MLE, any other CUDA error RE). Decided by the worker from the error's code, never its text.
enum class FaultCause { kOther, kDeviceMemory };

struct InitMessage {  // open the device, apply the sandbox's early layers
  DeviceKind device = DeviceKind::kCuda;
  FlushMode flush = FlushMode::kRead;
  SandboxPolicy sandbox;
};
struct DeviceMessage {  // the device is open
  DeviceInfo info;
};
struct LoadMessage {    // close the sandbox, then dlopen the submission
  std::string library;  // empty: only close the sandbox (the judge's calibration worker)
  std::string entry_point = "solve";
};
struct SandboxedMessage {  // sent before dlopen, so the layers are known even if a constructor kills the worker
  SandboxReport protections;
};
struct LoadedMessage {  // dlopen returned; the layers closed after it (code_seal.h, no_new_code)
  SandboxReport protections;
};
// inputs are on the device | a call of solve() returned | waiting for the seeds of a fresh call |
// the timed calls are over (only case_done follows: the judge may hand the GPU to another run)
enum class ProgressStage { kReady, kCall, kAwaitCall, kSampled };
std::string_view ProgressStageName(ProgressStage stage);  // the wire's "stage"
struct ProgressMessage {
  ProgressStage stage = ProgressStage::kCall;
  int calls = 0;        // calls of solve() completed so far
  std::string outputs;  // after a fresh call whose outputs are small: they (the frame's blob), the
                        // proof that the call was done when the judge's clock stopped
  // After a fresh call whose outputs are larger: their digest (device/checksum.h's Checksum of
  // each checked buffer, combined by OutputsDigest), the same proof without the bytes.
  std::optional<uint64_t> digest;
};
struct FetchMessage {  // the judge's answer to a large fresh call's progress
  int call = 0;
  // Keep that call's outputs in this slot (replacing what it held) until send_kept; none: go on.
  // Slots are numbered from 0, each new one next to the last.
  std::optional<int> slot;
};
struct SendKeptMessage {};   // send every kept slot's outputs, slot by slot, then forget them
struct CallOutputsMessage {  // the outputs of fresh call `call`, kept since fetch
  int call = 0;
  std::string outputs;  // the frame's blob
};
struct CallMessage {  // the judge's clock starts: one seed per input buffer, in signature order
  int call = 0;       // the index of the call these seeds are for
  std::vector<uint64_t> seeds;
};
struct CaseDoneMessage {
  CaseReport report;
  std::string outputs;  // report.output_calls' outputs, concatenated (the frame's blob)
};
struct CeilingMessage {};  // measure the device's ceilings (a judge-only worker)
struct CeilingMeasuredMessage {
  Ceilings ceiling;
};
struct FaultMessage {
  FaultPhase phase = FaultPhase::kProtocol;
  FaultCause cause = FaultCause::kOther;
  std::string message;
};

using Message = std::variant<InitMessage, DeviceMessage, LoadMessage, SandboxedMessage, LoadedMessage, CaseRequest,
                             ProgressMessage, CaseDoneMessage, CeilingMessage, CeilingMeasuredMessage, FaultMessage,
                             CallMessage, FetchMessage, SendKeptMessage, CallOutputsMessage>;
MessageKind KindOf(const Message& message);

// Takes the message: a blob (outputs of hundreds of MB) is moved into the frame, not copied.
Frame Encode(Message message);
// A typed message from a frame, every field validated (the worker's frames are untrusted); an
// error names the message kind and what is wrong.
Expected<Message> Decode(Frame frame);

// DeviceInfo is also part of the JSON report.
Json DeviceInfoToJson(const DeviceInfo& info);
DeviceInfo DeviceInfoFromJson(const Json& j);

}  // namespace judge

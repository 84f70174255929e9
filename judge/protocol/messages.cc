// SPDX-License-Identifier: MIT
#include "judge/protocol/messages.h"

#include <type_traits>

#include "judge/util/counter_rng.h"

namespace judge {
namespace {

const char* RoleName(Role role) {
  switch (role) {
    case Role::kInput: return "input";
    case Role::kOutput: return "output";
    case Role::kInOut: return "inout";
  }
  return "input";
}

std::optional<Role> RoleFromName(const std::string& name) {
  for (Role r : {Role::kInput, Role::kOutput, Role::kInOut})
    if (name == RoleName(r)) return r;
  return std::nullopt;
}

Json CaseRequestToJson(const CaseRequest& r) {
  Json params = Json::array();
  for (const auto& p : r.params) {
    if (!p.is_buffer) {
      params.push_back(p.is_real ? Json{{"real", p.real}} : Json{{"scalar", p.scalar}});
      continue;
    }
    Json b = {{"name", p.buffer.name},
              {"role", RoleName(p.buffer.role)},
              {"writable", p.buffer.writable},
              {"dtype", std::string(DTypeName(p.buffer.dtype))},
              {"count", p.buffer.count}};
    Json variants = Json::array();
    for (const auto& v : p.buffer.variants) variants.push_back(InputSpecToJson(v));
    b["variants"] = variants;
    params.push_back({{"buffer", b}});
  }
  const TimingPolicy& t = r.timing;
  return {{"name", r.name},
          {"params", params},
          {"guard_nan", r.guard_nan},
          {"zero_outputs", r.zero_outputs},
          {"diagnostic", r.diagnostic},
          {"hot", r.hot},
          {"fresh_timed_inputs", r.fresh_timed_inputs},
          {"kept_slots", r.kept_slots},
          {"noop", r.noop},
          {"profile", r.profile},
          {"timing",
           {{"warmup_calls", t.warmup_calls},
            {"min_samples", t.min_samples},
            {"max_samples", t.max_samples},
            {"budget_seconds", t.budget_seconds},
            {"target_noise", t.target_noise}}}};
}

Expected<CaseRequest> CaseRequestFromJson(const Json& j) {
  JsonContext ctx("case request", "");
  CaseRequest r;
  auto name = GetString(j, "name", ctx);
  auto params = GetArray(j, "params", ctx);
  auto timing = GetObject(j, "timing", ctx);
  if (!name) return name.error();
  if (!params) return params.error();
  if (!timing) return timing.error();
  r.name = *name;
  for (const Json& p : **params) {
    ParamArg arg;
    if (p.contains("scalar")) {
      arg.is_buffer = false;
      arg.scalar = p["scalar"].get<int32_t>();
    } else if (p.contains("real")) {
      arg.is_buffer = false;
      arg.is_real = true;
      arg.real = p["real"].get<float>();
    } else {
      const Json& b = p.at("buffer");
      arg.buffer.name = b.at("name").get<std::string>();
      auto role = RoleFromName(b.at("role").get<std::string>());
      if (!role) return MakeError(ErrorCode::kProtocol, "unknown buffer role " + b["role"].dump());
      arg.buffer.role = *role;
      arg.buffer.writable = b.value("writable", false);
      arg.buffer.dtype = DTypeFromName(b.at("dtype").get<std::string>()).value_or(DType::kFloat32);
      arg.buffer.count = b.at("count").get<int64_t>();
      for (const Json& v : b.value("variants", Json::array())) {
        auto spec = ParseInputSpec(v, ctx.Child("variants"));
        if (!spec) return spec.error();
        arg.buffer.variants.push_back(*spec);
      }
    }
    r.params.push_back(std::move(arg));
  }
  r.guard_nan = j.value("guard_nan", true);
  r.zero_outputs = j.value("zero_outputs", false);
  r.diagnostic = j.value("diagnostic", false);
  r.hot = j.value("hot", false);
  r.fresh_timed_inputs = j.value("fresh_timed_inputs", false);
  r.kept_slots = j.value("kept_slots", 0);
  if (r.kept_slots < 0 || r.kept_slots > kMaxKeptSlots)
    return MakeError(ErrorCode::kProtocol,
                     "kept_slots " + std::to_string(r.kept_slots) + " is outside 0-" + std::to_string(kMaxKeptSlots));
  r.noop = j.value("noop", false);
  r.profile = j.value("profile", false);
  const Json& t = **timing;
  r.timing =
      TimingPolicy{t.at("warmup_calls").get<int>(), t.at("min_samples").get<int>(), t.at("max_samples").get<int>(),
                   t.at("budget_seconds").get<double>(), t.at("target_noise").get<double>()};
  return r;
}

}  // namespace

Json DeviceInfoToJson(const DeviceInfo& i) {
  return {{"kind", std::string(DeviceKindName(i.kind))},
          {"name", i.name},
          {"compute_capability", std::to_string(i.cc_major) + "." + std::to_string(i.cc_minor)},
          {"cc_major", i.cc_major},
          {"cc_minor", i.cc_minor},
          {"sm_count", i.sm_count},
          {"l2_bytes", i.l2_bytes},
          {"memory_bytes", i.memory_bytes},
          {"driver_cuda_version", i.driver_version},
          {"runtime_version", i.runtime_version},
          {"peak_bandwidth_gbps", i.peak_bandwidth_gbps},
          {"device_count", i.device_count},
          {"sm_clock_mhz", i.sm_clock_mhz},
          {"driver_release", i.driver_release},
          {"empty_window_ms", i.empty_window_ms}};
}

DeviceInfo DeviceInfoFromJson(const Json& j) {
  DeviceInfo i;
  i.kind = ParseDeviceKind(j.value("kind", "")).value_or(DeviceKind::kCuda);
  i.name = j.value("name", "");
  i.cc_major = j.value("cc_major", 0);
  i.cc_minor = j.value("cc_minor", 0);
  i.sm_count = j.value("sm_count", 0);
  i.l2_bytes = j.value("l2_bytes", int64_t(0));
  i.memory_bytes = j.value("memory_bytes", int64_t(0));
  i.driver_version = j.value("driver_cuda_version", "");
  i.runtime_version = j.value("runtime_version", "");
  i.peak_bandwidth_gbps = j.value("peak_bandwidth_gbps", 0.0);
  i.device_count = j.value("device_count", 0);
  i.sm_clock_mhz = j.value("sm_clock_mhz", 0.0);
  i.driver_release = j.value("driver_release", "");
  i.empty_window_ms = j.value("empty_window_ms", 0.0);
  return i;
}

std::string_view CallKindName(CallKind k) {
  switch (k) {
    case CallKind::kCheck: return "check";
    case CallKind::kWarmup: return "warmup";
    case CallKind::kTimed: return "timed";
    case CallKind::kHot: return "hot";
  }
  return "timed";
}

namespace {

Json CaseReportToJson(const CaseReport& r) {
  Json calls = Json::array();
  for (const auto& c : r.calls)
    calls.push_back({{"kind", std::string(CallKindName(c.kind))},
                     {"variant", c.variant},
                     {"event_ms", c.event_ms},
                     {"wall_ms", c.wall_ms},
                     {"clock_mhz", c.clock_mhz},
                     {"throttled", c.throttled},
                     {"fresh", c.fresh}});
  Json j = {{"calls", calls},
            {"output_calls", r.output_calls},
            {"output_bytes_per_call", r.output_bytes_per_call},
            {"overhead_event_ms", r.overhead_event_ms},
            {"overhead_wall_ms", r.overhead_wall_ms},
            {"setup_ms", r.setup_ms}};
  if (r.violation)
    j["violation"] = {{"kind", r.violation->kind}, {"call", r.violation->call}, {"message", r.violation->message}};
  return j;
}

Expected<CaseReport> CaseReportFromJson(const Json& j) {
  auto bad = [](const std::string& why) { return MakeError(ErrorCode::kProtocol, "malformed case_done: " + why); };
  CaseReport r;
  try {
    for (const Json& c : j.at("calls")) {
      CallRecord rec;
      std::string kind = c.at("kind").get<std::string>();
      if (kind == "check")
        rec.kind = CallKind::kCheck;
      else if (kind == "warmup")
        rec.kind = CallKind::kWarmup;
      else if (kind == "timed")
        rec.kind = CallKind::kTimed;
      else if (kind == "hot")
        rec.kind = CallKind::kHot;
      else
        return bad("unknown call kind \"" + kind + "\"");
      rec.variant = c.at("variant").get<int>();
      rec.event_ms = c.at("event_ms").get<double>();
      rec.wall_ms = c.at("wall_ms").get<double>();
      rec.clock_mhz = c.value("clock_mhz", 0.0);
      rec.throttled = c.value("throttled", false);
      rec.fresh = c.value("fresh", false);
      if (rec.variant < 0 || rec.event_ms < 0 || rec.wall_ms < 0 || rec.clock_mhz < 0) return bad("negative values");
      r.calls.push_back(rec);
    }
    r.output_calls = j.at("output_calls").get<std::vector<int>>();
    r.output_bytes_per_call = j.at("output_bytes_per_call").get<size_t>();
    r.overhead_event_ms = j.value("overhead_event_ms", 0.0);
    r.overhead_wall_ms = j.value("overhead_wall_ms", 0.0);
    r.setup_ms = j.value("setup_ms", 0.0);
    if (j.contains("violation")) {
      const Json& v = j["violation"];
      r.violation =
          Violation{v.at("kind").get<std::string>(), v.at("call").get<int>(), v.at("message").get<std::string>()};
    }
  } catch (const std::exception& e) {
    return bad(e.what());
  }
  for (int c : r.output_calls)
    if (c < 0 || size_t(c) >= r.calls.size()) return bad("output_calls index out of range");
  return r;
}

template <class T>
T Field(const Json& j, const char* key) {
  return j.at(key).get<T>();
}

// Takes the blob out of `frame`: outputs of hundreds of MB are moved, never copied.
Expected<Message> DecodeHeader(MessageKind kind, Frame& frame) {
  const Json& h = frame.header;
  switch (kind) {
    case MessageKind::kInit: {
      auto device = ParseDeviceKind(Field<std::string>(h, "device"));
      if (!device) return MakeError(ErrorCode::kProtocol, "unknown device kind " + h["device"].dump());
      std::string flush = h.value("flush", "read");
      if (flush != "read" && flush != "write")
        return MakeError(ErrorCode::kProtocol, "unknown flush mode \"" + flush + "\"");
      return Message(InitMessage{*device, flush == "write" ? FlushMode::kWrite : FlushMode::kRead,
                                 SandboxPolicyFromJson(h.value("sandbox", Json::object()))});
    }
    case MessageKind::kDevice: return Message(DeviceMessage{DeviceInfoFromJson(h)});
    case MessageKind::kLoad:
      return Message(LoadMessage{Field<std::string>(h, "library"), Field<std::string>(h, "entry_point")});
    case MessageKind::kSandboxed: return Message(SandboxedMessage{SandboxReportFromJson(h.at("protections"))});
    case MessageKind::kLoaded:
      return Message(LoadedMessage{SandboxReportFromJson(h.value("protections", Json::array()))});
    case MessageKind::kCase: {
      auto request = CaseRequestFromJson(h);
      if (!request) return request.error();
      return Message(std::move(*request));
    }
    case MessageKind::kProgress: {
      std::string name = Field<std::string>(h, "stage");
      std::optional<ProgressStage> stage;
      for (ProgressStage s :
           {ProgressStage::kReady, ProgressStage::kCall, ProgressStage::kAwaitCall, ProgressStage::kSampled})
        if (name == ProgressStageName(s)) stage = s;
      if (!stage) return MakeError(ErrorCode::kProtocol, "unknown progress stage \"" + name + "\"");
      int calls = Field<int>(h, "calls");
      if (calls < 0) return MakeError(ErrorCode::kProtocol, "negative call count");
      if (!frame.blob.empty() && *stage != ProgressStage::kCall)
        return MakeError(ErrorCode::kProtocol, "progress \"" + name + "\" carries outputs");
      ProgressMessage m{*stage, calls, std::move(frame.blob), std::nullopt};
      if (h.contains("digest")) {
        if (*stage != ProgressStage::kCall || !m.outputs.empty())
          return MakeError(ErrorCode::kProtocol, "a digest goes only with a call's progress, without outputs");
        m.digest = Field<uint64_t>(h, "digest");
      }
      return Message(std::move(m));
    }
    case MessageKind::kFetch: {
      FetchMessage m{Field<int>(h, "call"), std::nullopt};
      if (m.call < 0) return MakeError(ErrorCode::kProtocol, "negative call index");
      if (h.contains("slot")) {
        m.slot = Field<int>(h, "slot");
        if (*m.slot < 0) return MakeError(ErrorCode::kProtocol, "negative slot");
      }
      return Message(m);
    }
    case MessageKind::kSendKept: return Message(SendKeptMessage{});
    case MessageKind::kCallOutputs: {
      CallOutputsMessage m{Field<int>(h, "call"), std::move(frame.blob)};
      if (m.call < 0) return MakeError(ErrorCode::kProtocol, "negative call index");
      return Message(std::move(m));
    }
    case MessageKind::kCall: {
      CallMessage m{Field<int>(h, "call"), Field<std::vector<uint64_t>>(h, "seeds")};
      if (m.call < 0) return MakeError(ErrorCode::kProtocol, "negative call index");
      return Message(std::move(m));
    }
    case MessageKind::kCaseDone: {
      auto report = CaseReportFromJson(h);
      if (!report) return report.error();
      size_t expected = report->output_calls.size() * report->output_bytes_per_call;
      if (frame.blob.size() != expected)
        return MakeError(ErrorCode::kProtocol, "case_done carries " + std::to_string(frame.blob.size()) +
                                                   " output bytes, its header says " + std::to_string(expected));
      return Message(CaseDoneMessage{std::move(*report), std::move(frame.blob)});
    }
    case MessageKind::kCeiling: return Message(CeilingMessage{});
    case MessageKind::kCeilingMeasured:
      return Message(CeilingMeasuredMessage{Ceilings{Field<double>(h, "read_gbps"), Field<double>(h, "copy_gbps"),
                                                     Field<double>(h, "fp32_gflops"), Field<std::string>(h, "shape")}});
    case MessageKind::kFault: {
      std::string phase = Field<std::string>(h, "phase");
      FaultMessage f;
      bool known = false;
      for (FaultPhase p :
           {FaultPhase::kInit, FaultPhase::kLoad, FaultPhase::kSetup, FaultPhase::kSolve, FaultPhase::kProtocol})
        if (phase == FaultPhaseName(p)) {
          f.phase = p;
          known = true;
        }
      if (!known) return MakeError(ErrorCode::kProtocol, "unknown fault phase \"" + phase + "\"");
      std::string cause = h.value("cause", "other");
      if (cause != "other" && cause != "device_memory")
        return MakeError(ErrorCode::kProtocol, "unknown fault cause \"" + cause + "\"");
      f.cause = cause == "device_memory" ? FaultCause::kDeviceMemory : FaultCause::kOther;
      f.message = Field<std::string>(h, "message");
      return Message(std::move(f));
    }
  }
  return MakeError(ErrorCode::kProtocol, "unknown message kind");
}

}  // namespace

size_t OutputBytesPerCall(const CaseRequest& request) {
  size_t bytes = 0;
  for (const ParamArg& p : request.params)
    if (p.is_buffer && p.buffer.IsChecked()) bytes += size_t(p.buffer.count) * DTypeSize(p.buffer.dtype);
  return bytes;
}

int64_t InputBytesPerCall(const CaseRequest& request) {
  int64_t bytes = 0;
  for (const ParamArg& p : request.params)
    if (p.is_buffer && p.buffer.HoldsInputData()) bytes += p.buffer.count * int64_t(DTypeSize(p.buffer.dtype));
  return bytes;
}

uint64_t OutputsDigest(const std::vector<uint64_t>& buffer_checksums) {
  uint64_t digest = 0x6a09e667f3bcc908ULL;
  for (uint64_t c : buffer_checksums) digest = rng::SplitMix64(digest ^ c);
  return digest;
}

std::string_view MessageKindName(MessageKind kind) {
  switch (kind) {
    case MessageKind::kInit: return "init";
    case MessageKind::kDevice: return "device";
    case MessageKind::kLoad: return "load";
    case MessageKind::kSandboxed: return "sandboxed";
    case MessageKind::kLoaded: return "loaded";
    case MessageKind::kCase: return "case";
    case MessageKind::kProgress: return "progress";
    case MessageKind::kCaseDone: return "case_done";
    case MessageKind::kCeiling: return "ceiling";
    case MessageKind::kCeilingMeasured: return "ceiling_measured";
    case MessageKind::kFault: return "fault";
    case MessageKind::kCall: return "call";
    case MessageKind::kFetch: return "fetch";
    case MessageKind::kSendKept: return "send_kept";
    case MessageKind::kCallOutputs: return "call_outputs";
  }
  return "unknown";
}

std::string_view ProgressStageName(ProgressStage stage) {
  switch (stage) {
    case ProgressStage::kReady: return "ready";
    case ProgressStage::kCall: return "call";
    case ProgressStage::kAwaitCall: return "await_call";
    case ProgressStage::kSampled: return "sampled";
  }
  return "call";
}

std::string_view FaultPhaseName(FaultPhase phase) {
  switch (phase) {
    case FaultPhase::kInit: return "init";
    case FaultPhase::kLoad: return "load";
    case FaultPhase::kSetup: return "setup";
    case FaultPhase::kSolve: return "solve";
    case FaultPhase::kProtocol: return "protocol";
  }
  return "protocol";
}

MessageKind KindOf(const Message& message) {
  // The variant's alternatives are declared in MessageKind's order.
  return kAllMessageKinds[message.index()];
}

Frame Encode(Message message) {
  Frame f;
  f.header = std::visit(
      [&f](auto& m) -> Json {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, InitMessage>)
          return {{"device", std::string(DeviceKindName(m.device))},
                  {"flush", m.flush == FlushMode::kWrite ? "write" : "read"},
                  {"sandbox", SandboxPolicyToJson(m.sandbox)}};
        else if constexpr (std::is_same_v<T, DeviceMessage>)
          return DeviceInfoToJson(m.info);
        else if constexpr (std::is_same_v<T, LoadMessage>)
          return {{"library", m.library}, {"entry_point", m.entry_point}};
        else if constexpr (std::is_same_v<T, SandboxedMessage> || std::is_same_v<T, LoadedMessage>)
          return {{"protections", SandboxReportToJson(m.protections)}};
        else if constexpr (std::is_same_v<T, CaseRequest>)
          return CaseRequestToJson(m);
        else if constexpr (std::is_same_v<T, ProgressMessage>) {
          f.blob = std::move(m.outputs);
          Json j = {{"stage", std::string(ProgressStageName(m.stage))}, {"calls", m.calls}};
          if (m.digest) j["digest"] = *m.digest;
          return j;
        } else if constexpr (std::is_same_v<T, CallMessage>)
          return {{"call", m.call}, {"seeds", m.seeds}};
        else if constexpr (std::is_same_v<T, FetchMessage>) {
          Json j = {{"call", m.call}};
          if (m.slot) j["slot"] = *m.slot;
          return j;
        } else if constexpr (std::is_same_v<T, CallOutputsMessage>) {
          f.blob = std::move(m.outputs);
          return {{"call", m.call}};
        } else if constexpr (std::is_same_v<T, CaseDoneMessage>) {
          f.blob = std::move(m.outputs);
          return CaseReportToJson(m.report);
        } else if constexpr (std::is_same_v<T, CeilingMeasuredMessage>)
          return {{"read_gbps", m.ceiling.read_gbps},
                  {"copy_gbps", m.ceiling.copy_gbps},
                  {"fp32_gflops", m.ceiling.fp32_gflops},
                  {"shape", m.ceiling.shape}};
        else if constexpr (std::is_same_v<T, FaultMessage>)
          return {{"phase", std::string(FaultPhaseName(m.phase))},
                  {"cause", m.cause == FaultCause::kDeviceMemory ? "device_memory" : "other"},
                  {"message", m.message}};
        else
          return Json::object();  // CeilingMessage, SendKeptMessage: the type says it all
      },
      message);
  f.header["type"] = std::string(MessageKindName(KindOf(message)));
  return f;
}

Expected<Message> Decode(Frame frame) {
  std::string type = frame.header.value("type", "");
  for (MessageKind kind : kAllMessageKinds) {
    if (type != MessageKindName(kind)) continue;
    try {
      auto m = DecodeHeader(kind, frame);
      if (!m) return MakeError(ErrorCode::kProtocol, "malformed " + type + " message: " + m.error().message);
      return m;
    } catch (const std::exception& e) {
      return MakeError(ErrorCode::kProtocol, "malformed " + type + " message: " + e.what());
    }
  }
  return MakeError(ErrorCode::kProtocol, "unknown message type \"" + type + "\"");
}

}  // namespace judge

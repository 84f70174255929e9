// SPDX-License-Identifier: MIT
#include "judge/protocol/messages.h"

namespace judge {

Json CaseRequestToJson(const CaseRequest& r) {
  Json params = Json::array();
  for (const auto& p : r.params) {
    if (!p.is_buffer) { params.push_back({{"scalar", p.scalar}}); continue; }
    Json b = {{"name", p.buffer.name}, {"is_input", p.buffer.is_input},
              {"dtype", std::string(DTypeName(p.buffer.dtype))}, {"count", p.buffer.count}};
    Json variants = Json::array();
    for (const auto& v : p.buffer.variants) variants.push_back(InputSpecToJson(v));
    b["variants"] = variants;
    params.push_back({{"buffer", b}});
  }
  const TimingPolicy& t = r.timing;
  return {{"type", "case"}, {"name", r.name}, {"params", params}, {"guard_nan", r.guard_nan},
          {"zero_outputs", r.zero_outputs}, {"diagnostic", r.diagnostic}, {"hot", r.hot},
          {"timing", {{"warmup_calls", t.warmup_calls}, {"min_samples", t.min_samples}, {"max_samples", t.max_samples},
                      {"budget_seconds", t.budget_seconds}, {"target_noise", t.target_noise}}}};
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
    } else {
      const Json& b = p.at("buffer");
      arg.buffer.name = b.at("name").get<std::string>();
      arg.buffer.is_input = b.at("is_input").get<bool>();
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
  const Json& t = **timing;
  r.timing = TimingPolicy{t.at("warmup_calls").get<int>(), t.at("min_samples").get<int>(), t.at("max_samples").get<int>(),
                          t.at("budget_seconds").get<double>(), t.at("target_noise").get<double>()};
  return r;
}

Json DeviceInfoToJson(const DeviceInfo& i) {
  return {{"kind", std::string(DeviceKindName(i.kind))}, {"name", i.name}, {"compute_capability", std::to_string(i.cc_major) + "." + std::to_string(i.cc_minor)},
          {"cc_major", i.cc_major}, {"cc_minor", i.cc_minor}, {"sm_count", i.sm_count}, {"l2_bytes", i.l2_bytes},
          {"memory_bytes", i.memory_bytes}, {"driver_cuda_version", i.driver_version},
          {"runtime_version", i.runtime_version}, {"peak_bandwidth_gbps", i.peak_bandwidth_gbps},
          {"device_count", i.device_count}, {"sm_clock_mhz", i.sm_clock_mhz}, {"driver_release", i.driver_release},
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

}  // namespace judge

namespace judge {

std::string_view CallKindName(CallKind k) {
  switch (k) {
    case CallKind::kCheck: return "check";
    case CallKind::kWarmup: return "warmup";
    case CallKind::kTimed: return "timed";
    case CallKind::kHot: return "hot";
  }
  return "timed";
}

Json CaseReportToJson(const CaseReport& r) {
  Json calls = Json::array();
  for (const auto& c : r.calls)
    calls.push_back({{"kind", std::string(CallKindName(c.kind))}, {"variant", c.variant},
                     {"event_ms", c.event_ms}, {"wall_ms", c.wall_ms}, {"clock_mhz", c.clock_mhz},
                     {"throttled", c.throttled}});
  Json j = {{"calls", calls}, {"output_calls", r.output_calls}, {"output_bytes_per_call", r.output_bytes_per_call},
            {"overhead_event_ms", r.overhead_event_ms}, {"overhead_wall_ms", r.overhead_wall_ms},
            {"setup_ms", r.setup_ms}};
  if (r.violation) j["violation"] = {{"kind", r.violation->kind}, {"call", r.violation->call}, {"message", r.violation->message}};
  return j;
}

Expected<CaseReport> CaseReportFromJson(const Json& j) {
  auto bad = [](const std::string& why) { return MakeError(ErrorCode::kProtocol, "malformed case_done: " + why); };
  CaseReport r;
  try {
    for (const Json& c : j.at("calls")) {
      CallRecord rec;
      std::string kind = c.at("kind").get<std::string>();
      if (kind == "check") rec.kind = CallKind::kCheck;
      else if (kind == "warmup") rec.kind = CallKind::kWarmup;
      else if (kind == "timed") rec.kind = CallKind::kTimed;
      else if (kind == "hot") rec.kind = CallKind::kHot;
      else return bad("unknown call kind \"" + kind + "\"");
      rec.variant = c.at("variant").get<int>();
      rec.event_ms = c.at("event_ms").get<double>();
      rec.wall_ms = c.at("wall_ms").get<double>();
      rec.clock_mhz = c.value("clock_mhz", 0.0);
      rec.throttled = c.value("throttled", false);
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
      r.violation = Violation{v.at("kind").get<std::string>(), v.at("call").get<int>(), v.at("message").get<std::string>()};
    }
  } catch (const std::exception& e) {
    return bad(e.what());
  }
  for (int c : r.output_calls)
    if (c < 0 || size_t(c) >= r.calls.size()) return bad("output_calls index out of range");
  return r;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/protocol/messages.h"

namespace judge {

Json CaseRequestToJson(const CaseRequest& r) {
  Json params = Json::array();
  for (const auto& p : r.params) {
    if (!p.is_buffer) { params.push_back({{"scalar", p.scalar}}); continue; }
    Json b = {{"name", p.buffer.name}, {"is_input", p.buffer.is_input},
              {"dtype", std::string(DTypeName(p.buffer.dtype))}, {"count", p.buffer.count}};
    if (p.buffer.input) b["input"] = InputSpecToJson(*p.buffer.input);
    params.push_back({{"buffer", b}});
  }
  const TimingPolicy& t = r.timing;
  return {{"type", "case"}, {"name", r.name}, {"params", params},
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
      if (b.contains("input")) {
        auto spec = ParseInputSpec(b["input"], ctx.Child("input"));
        if (!spec) return spec.error();
        arg.buffer.input = *spec;
      }
    }
    r.params.push_back(std::move(arg));
  }
  const Json& t = **timing;
  r.timing = TimingPolicy{t.at("warmup_calls").get<int>(), t.at("min_samples").get<int>(), t.at("max_samples").get<int>(),
                          t.at("budget_seconds").get<double>(), t.at("target_noise").get<double>()};
  return r;
}

Json DeviceInfoToJson(const DeviceInfo& i) {
  return {{"kind", i.kind}, {"name", i.name}, {"compute_capability", std::to_string(i.cc_major) + "." + std::to_string(i.cc_minor)},
          {"cc_major", i.cc_major}, {"cc_minor", i.cc_minor}, {"sm_count", i.sm_count}, {"l2_bytes", i.l2_bytes},
          {"memory_bytes", i.memory_bytes}, {"driver_cuda_version", i.driver_version},
          {"runtime_version", i.runtime_version}, {"peak_bandwidth_gbps", i.peak_bandwidth_gbps},
          {"device_count", i.device_count}};
}

DeviceInfo DeviceInfoFromJson(const Json& j) {
  DeviceInfo i;
  i.kind = j.value("kind", "");
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
  return i;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/profile/profile.h"

#include <spdlog/fmt/fmt.h>

#include "judge/profile/ncu_csv.h"
#include "judge/util/utf8.h"

namespace judge::profile {
namespace {

constexpr size_t kTableNameBytes = 40;  // a kernel's name in the text table is cut after this

std::string Or(const Metric& m, const char* format, double scale = 1) {
  return m ? fmt::format(fmt::runtime(format), *m * scale) : std::string("-");
}

std::string ShortName(const std::string& name) {
  // "reduce6<256>(const float *, float *, int)" -> "reduce6<256>": the parameters are the same for
  // every kernel of a problem and crowd the table.
  std::string s = name.substr(0, name.find('('));
  return ForTerminal(s.empty() ? name : s, kTableNameBytes);
}

std::string ShortLimiter(Limiter l) {  // the table's column is narrow
  switch (l) {
    case Limiter::kRegisters: return "regs";
    case Limiter::kSharedMemory: return "smem";
    case Limiter::kWarps: return "warps";
    case Limiter::kBlocks: return "blocks";
    case Limiter::kUnknown: break;
  }
  return "?";
}

nlohmann::json NumbersToJson(const std::vector<FindingNumber>& numbers) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& n : numbers) out.push_back({{"name", n.name}, {"value", n.value}, {"unit", n.unit}});
  return out;
}

}  // namespace

std::string_view ProfileStatusName(ProfileStatus s) {
  switch (s) {
    case ProfileStatus::kProfiled: return "profiled";
    case ProfileStatus::kNcuMissing: return "ncu_missing";
    case ProfileStatus::kCountersRestricted: return "counters_restricted";
    case ProfileStatus::kSkipped: return "skipped";
    case ProfileStatus::kFailed: break;
  }
  return "failed";
}

std::optional<ProfileStatus> ProfileStatusFromName(std::string_view name) {
  for (ProfileStatus s : {ProfileStatus::kProfiled, ProfileStatus::kNcuMissing, ProfileStatus::kCountersRestricted,
                          ProfileStatus::kFailed, ProfileStatus::kSkipped})
    if (ProfileStatusName(s) == name) return s;
  return std::nullopt;
}

std::string NcuMissingAdvice() {
  return "Nsight Compute (ncu) was not found on PATH, in $CUDA_HOME/bin or in /usr/local/cuda/bin, so nothing was "
         "profiled; the verdict is unaffected. It ships with the CUDA Toolkit (the nvidia/cuda:*-devel images, or "
         "the nsight-compute package); see docs/PROFILE.md";
}

CaseProfile NcuMissing() {
  CaseProfile p;
  p.status = ProfileStatus::kNcuMissing;
  p.message = NcuMissingAdvice();
  return p;
}

CaseProfile ProfileFromNcu(std::string_view ncu_text, const SolveFacts& solve, const GpuFacts& gpu,
                           const WorkFacts& work) {
  CaseProfile p;
  p.solve = solve;
  p.gpu = gpu;
  p.work = work;
  NcuOutput out = ParseNcuCsv(ncu_text);
  p.kernels = std::move(out.kernels);
  if (out.counters_restricted) {
    p.status = ProfileStatus::kCountersRestricted;
    p.message = CountersRestrictedAdvice();
    p.kernels.clear();
    return p;
  }
  if (p.kernels.empty()) {
    p.status = ProfileStatus::kFailed;
    p.message = "Nsight Compute measured no kernel of solve()";
    if (!out.errors.empty())
      p.message += ": " + out.errors.front();
    else if (!out.has_header)
      p.message += " (its output held no table)";
    return p;
  }
  p.status = ProfileStatus::kProfiled;
  p.diagnosis = Diagnose(p.kernels, solve, gpu, work);
  return p;
}

std::string FormatProfileText(const CaseProfile& p) {
  std::string out = fmt::format("profile of case {} (Nsight Compute, one solve() call):\n", p.case_name);
  if (p.status != ProfileStatus::kProfiled)
    return out + "  not profiled (" + std::string(ProfileStatusName(p.status)) + "): " + p.message + "\n";
  out += fmt::format("  {:>3}  {:<40} {:>16} {:>10} {:>9} {:>6} {:>5} {:>5} {:>15} {:>5} {:>7} {:>6} {:>8}  {}\n", "#",
                     "kernel", "grid x block", "time", "DRAM GB/s", "roof", "mem%", "SM%", "occupancy", "regs",
                     "thr/wrp", "bank%", "atomics", "top stall");
  for (const KernelMetrics& k : p.kernels) {
    auto gbps = k.DramGbps();
    auto top = k.TopStall();
    std::string occupancy = Or(k.achieved_occupancy_pct, "{:.0f}") + "/" + Or(k.theoretical_occupancy_pct, "{:.0f}") +
                            "% " + ShortLimiter(k.OccupancyLimiter());
    out += fmt::format("  {:>3}  {:<40} {:>16} {:>10} {:>9} {:>6} {:>5} {:>5} {:>15} {:>5} {:>7} {:>6} {:>8}  {}\n",
                       k.id, ShortName(k.name), fmt::format("{} x {}", k.Blocks(), k.ThreadsPerBlock()),
                       k.duration_ns ? fmt::format("{:.2f} us", *k.duration_ns / 1000) : "-", Or(gbps, "{:.0f}"),
                       gbps && p.gpu.read_gbps > 0 ? fmt::format("{:.0f}%", 100 * *gbps / p.gpu.read_gbps) : "-",
                       Or(k.memory_pct, "{:.0f}"), Or(k.sm_pct, "{:.0f}"), occupancy,
                       Or(k.registers_per_thread, "{:.0f}"), Or(k.threads_per_warp_inst, "{:.1f}"),
                       Or(k.SharedExcessShare(), "{:.0f}", 100), Or(k.L2AtomicRequests(), "{:.0f}"),
                       top ? fmt::format("{} {:.1f}", StallName(*top), *k.stalls[size_t(*top)]) : "-");
  }
  const Diagnosis& d = p.diagnosis;
  out += fmt::format("  {} kernel launch{}, {:.2f} us in kernels", d.launches, d.launches == 1 ? "" : "es",
                     d.kernel_ns / 1000);
  if (d.outside_kernels_ns && p.solve.solve_ms)
    out += fmt::format("; solve() {:.2f} us unprofiled, {:.2f} us of it outside kernels", *p.solve.solve_ms * 1000,
                       *d.outside_kernels_ns / 1000);
  out += "\ndiagnosis:\n";
  if (d.findings.empty()) out += "  " + d.headline + "\n";
  for (const Finding& f : d.findings)
    out += fmt::format("  [{}] {}{}: {}\n      next: {}\n", SeverityName(f.severity), f.code,
                       f.kernel.empty() ? std::string(" (solve)") : " (" + ShortName(f.kernel) + ")", f.message,
                       f.next_step);
  return out;
}

nlohmann::json ProfileToJson(const CaseProfile& p) {
  nlohmann::json j = {
      {"case", p.case_name}, {"status", ProfileStatusName(p.status)}, {"message", p.message}, {"seconds", p.seconds}};
  j["facts"] = {{"read_gbps", p.gpu.read_gbps},        {"fp32_gflops", p.gpu.fp32_gflops},
                {"sm_count", p.gpu.sm_count},          {"useful_bytes", p.work.useful_bytes},
                {"useful_flops", p.work.useful_flops}, {"output_elements", p.work.output_elements}};
  if (p.solve.solve_ms) j["facts"]["solve_ms"] = *p.solve.solve_ms;
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelMetrics& k : p.kernels) {
    nlohmann::json metrics = nlohmann::json::object();
    for (const MetricColumn& m : MetricTable()) {
      const Metric& v = m.field ? k.*m.field : k.stalls[size_t(m.stall)];
      if (v) metrics[std::string(m.name)] = *v;
    }
    kernels.push_back({{"id", k.id},
                       {"name", k.name},
                       {"grid_size", k.grid_size},
                       {"block_size", k.block_size},
                       {"metrics", metrics}});
  }
  j["kernels"] = kernels;
  nlohmann::json findings = nlohmann::json::array();
  for (const Finding& f : p.diagnosis.findings)
    findings.push_back({{"code", f.code},
                        {"severity", SeverityName(f.severity)},
                        {"kernel_id", f.kernel_id},
                        {"kernel", f.kernel},
                        {"message", f.message},
                        {"next_step", f.next_step},
                        {"numbers", NumbersToJson(f.numbers)}});
  j["diagnosis"] = {{"headline", p.diagnosis.headline},
                    {"kernel_ns", p.diagnosis.kernel_ns},
                    {"launches", p.diagnosis.launches},
                    {"findings", findings}};
  if (p.diagnosis.outside_kernels_ns) j["diagnosis"]["outside_kernels_ns"] = *p.diagnosis.outside_kernels_ns;
  return j;
}

Expected<CaseProfile> ProfileFromJson(const nlohmann::json& j) {
  try {
    CaseProfile p;
    p.case_name = j.at("case").get<std::string>();
    auto status = ProfileStatusFromName(j.at("status").get<std::string>());
    if (!status) return MakeError(ErrorCode::kBadInput, "profile: unknown status " + j.at("status").dump());
    p.status = *status;
    p.message = j.value("message", "");
    p.seconds = j.value("seconds", 0.0);
    const auto& facts = j.at("facts");
    p.gpu.read_gbps = facts.value("read_gbps", 0.0);
    p.gpu.fp32_gflops = facts.value("fp32_gflops", 0.0);
    p.gpu.sm_count = facts.value("sm_count", 0);
    p.work.useful_bytes = facts.value("useful_bytes", 0.0);
    p.work.useful_flops = facts.value("useful_flops", 0.0);
    p.work.output_elements = facts.value("output_elements", int64_t(0));
    if (facts.contains("solve_ms")) p.solve.solve_ms = facts.at("solve_ms").get<double>();
    for (const auto& jk : j.at("kernels")) {
      KernelMetrics k;
      k.id = jk.at("id").get<int>();
      k.name = jk.at("name").get<std::string>();
      k.grid_size = jk.value("grid_size", int64_t(0));
      k.block_size = jk.value("block_size", int64_t(0));
      const auto& metrics = jk.at("metrics");
      for (const MetricColumn& m : MetricTable()) {
        auto it = metrics.find(std::string(m.name));
        if (it == metrics.end() || !it->is_number()) continue;
        (m.field ? k.*m.field : k.stalls[size_t(m.stall)]) = it->get<double>();
      }
      p.kernels.push_back(std::move(k));
    }
    const auto& d = j.at("diagnosis");
    p.diagnosis.headline = d.value("headline", "");
    p.diagnosis.kernel_ns = d.value("kernel_ns", 0.0);
    p.diagnosis.launches = d.value("launches", 0);
    if (d.contains("outside_kernels_ns")) p.diagnosis.outside_kernels_ns = d.at("outside_kernels_ns").get<double>();
    for (const auto& jf : d.at("findings")) {
      Finding f;
      f.code = jf.at("code").get<std::string>();
      std::string severity = jf.at("severity").get<std::string>();
      f.severity = severity == "bottleneck" ? Severity::kBottleneck
                   : severity == "warning"  ? Severity::kWarning
                                            : Severity::kInfo;
      f.kernel_id = jf.value("kernel_id", -1);
      f.kernel = jf.value("kernel", "");
      f.message = jf.value("message", "");
      f.next_step = jf.value("next_step", "");
      for (const auto& n : jf.value("numbers", nlohmann::json::array()))
        f.numbers.push_back({n.at("name").get<std::string>(), n.at("value").get<double>(), n.value("unit", "")});
      p.diagnosis.findings.push_back(std::move(f));
    }
    return p;
  } catch (const nlohmann::json::exception& e) {
    return MakeError(ErrorCode::kBadInput, std::string("profile: ") + e.what());
  }
}

std::optional<RooflineDot> KernelRooflineDot(const KernelMetrics& k) {
  auto flops = k.Flops();
  auto bytes = k.DramBytes();
  if (!flops || *flops <= 0 || !bytes || *bytes <= 0 || !k.duration_ns || *k.duration_ns <= 0) return std::nullopt;
  return RooflineDot{k.name, *flops / *bytes, *flops / *k.duration_ns, *bytes / *k.duration_ns};
}

}  // namespace judge::profile

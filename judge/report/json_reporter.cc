// SPDX-License-Identifier: MIT
#include <cmath>

#include "judge/profile/profile.h"
#include "judge/protocol/messages.h"
#include "judge/report/reporter.h"

namespace judge {
namespace {

// JSON has no NaN or Infinity: they become null (and "non_finite" says why).
Json Finite(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json CheckToJson(const CheckResult& c) {
  return {{"passed", c.passed},
          {"elements", c.elements},
          {"mismatches", c.mismatches},
          {"non_finite", c.non_finite},
          {"worst_index", c.worst_index},
          {"expected", Finite(c.expected)},
          {"got", Finite(c.got)},
          {"abs_error", Finite(c.abs_error)},
          {"rel_error", Finite(c.rel_error)},
          {"tolerance", c.tolerance},
          {"tolerance_used", Finite(c.tolerance_used)}};
}

Json StatsToJson(const SampleStats& s) {
  return {{"samples", s.count},    {"median_ms", s.median}, {"mean_ms", s.mean}, {"min_ms", s.min},
          {"max_ms", s.max},       {"q1_ms", s.q1},         {"q3_ms", s.q3},     {"iqr_ms", s.iqr()},
          {"stddev_ms", s.stddev}, {"noise", s.noise}};
}

Json CaseToJson(const CaseResult& c, const RunReport& r) {
  Json j = {
      {"name", c.name},
      {"kind", std::string(CaseKindName(c.kind))},
      {"scalars", c.scalars},
      {"verdict", std::string(VerdictShort(c.verdict))},
      {"verdict_code", int(c.verdict)},
      {"detail", c.detail},
      {"min_bytes", c.min_bytes},
      {"work", {{"bytes_read", c.work.bytes_read}, {"bytes_written", c.work.bytes_written}, {"flops", c.work.flops}}},
      {"seconds", c.seconds},
      {"prepare_seconds", c.prepare_seconds},
      {"setup_seconds", c.setup_seconds}};
  if (c.check) j["check"] = CheckToJson(*c.check);
  if (c.timed_check) j["timed_check"] = CheckToJson(*c.timed_check);
  if (c.event.count) {
    j["timing"] = {{"device", StatsToJson(c.event)},
                   {"host_wall", StatsToJson(c.wall)},
                   {"warmup_calls", c.warmup_calls},
                   {"gbps", c.gbps},
                   {"gflops", c.gflops},
                   {"bound", std::string(BoundName(c.bound))},
                   {"l2_flushed", true},
                   // Of the ceiling that binds (memory or FP32): the one percentage grades and ranks use.
                   {"pct_of_ceiling", c.roofline_pct > 0 ? Json(c.roofline_pct) : Json(nullptr)},
                   {"ceiling", BindingCeiling(c, r) > 0 ? Json(BindingCeiling(c, r)) : Json(nullptr)},
                   {"pct_of_peak", r.device && r.device->peak_bandwidth_gbps > 0
                                       ? Json(100 * c.gbps / r.device->peak_bandwidth_gbps)
                                       : Json(nullptr)},
                   {"audit",
                    {{"unseen_ms", c.audit.unseen_ms},
                     {"escaped", c.audit.escaped},
                     {"overhead_wall_ms", c.audit.overhead_wall_ms},
                     {"overhead_event_ms", c.overhead_event_ms},
                     {"median_ms", c.audit.honest_median_ms}}},
                   {"l2_flush", r.flush_mode},
                   {"sm_clock_mhz", c.sm_clock_mhz},
                   {"raw_median_ms", c.raw_event_median_ms},
                   {"window_correction_ms", c.window_correction_ms},
                   {"throttled_discarded", c.throttled_discarded}};
    // The judge's own clock on the fresh timed calls (net of its calibrated share), the check
    // behind the worker's figures: 0 with a note when it did not run.
    j["timing"]["judge_clock"] = {{"ms", Finite(c.judge_clock.ms)},
                                  {"calibration_ms", Finite(c.judge_clock.calibration_ms)},
                                  {"spread_ms", Finite(c.judge_clock.spread_ms)},
                                  {"note", c.judge_clock.note}};
    if (c.hot.count) j["timing"]["hot"] = StatsToJson(c.hot);  // labelled: the L2 was not flushed
    Json ms = Json::array(), variant = Json::array(), clock = Json::array(), process = Json::array();
    for (const TimedSample& s : c.samples) {
      ms.push_back(Finite(s.ms));
      variant.push_back(s.variant);
      clock.push_back(Finite(s.clock_mhz));
      process.push_back(s.process);
    }
    j["timing"]["samples"] = {{"ms", ms}, {"variant", variant}, {"clock_mhz", clock}, {"process", process}};
  }
  j["input_variants"] = c.input_variants;
  j["calls_checked"] = c.calls_checked;
  j["deterministic"] = c.deterministic ? Json(*c.deterministic) : Json(nullptr);
  j["flags"] = c.flags;
  j["ranked"] = c.flags.empty() && c.verdict == Verdict::kAccepted;
  j["stdout"] = c.worker_stdout;
  j["stderr"] = c.worker_stderr;
  j["output_truncated"] = c.output_truncated;
  return j;
}

}  // namespace

Json ReportToJson(const RunReport& r) {
  Json cases = Json::array();
  std::map<std::string, int> counts;
  for (const auto& c : r.cases) {
    cases.push_back(CaseToJson(c, r));
    counts[std::string(VerdictShort(c.verdict))]++;
  }
  const BuildInfo& b = r.build;
  Json j = {
      {"schema", "gpu-judge.report"},
      {"schema_version", kReportSchemaVersion},
      {"judge_version", r.judge_version},
      {"started_at", r.started_at},
      {"seconds", r.seconds},
      {"submission", {{"path", r.submission_path}, {"sha256", r.submission_sha256}}},
      {"problem", {{"name", r.problem}, {"atol", r.tolerance.atol}, {"rtol", r.tolerance.rtol}, {"check", r.check}}},
      {"verdict", std::string(VerdictShort(r.verdict))},
      {"verdict_code", int(r.verdict)},
      {"verdict_text", std::string(VerdictLong(r.verdict))},
      {"exit_code", int(r.exit_code)},
      {"message", r.message},
      {"warnings", r.warnings},
      {"protections", SandboxReportToJson(r.protections)},
      {"build",
       {{"attempted", b.attempted},
        {"ok", b.ok},
        {"prebuilt", b.prebuilt},
        {"cache_hit", b.cache_hit},
        {"compiler", b.compiler},
        {"target", b.target},
        {"flags", b.flags},
        {"seconds", b.seconds},
        {"compile_seconds", b.compile_seconds},
        {"log", b.log},
        {"cache_key", b.cache_key},
        {"sandbox", SandboxReportToJson(b.sandbox)}}},
      {"summary", {{"cases", r.cases.size()}, {"by_verdict", counts}}},
      {"cases", cases}};
  Json sanitizers = Json::array();
  for (const auto& s : r.sanitizers)
    sanitizers.push_back({{"tool", s.tool},
                          {"ran", s.ran},
                          {"errors", s.errors},
                          {"warnings", s.warnings},
                          {"summary", s.summary},
                          {"findings", s.findings},
                          {"seconds", s.seconds},
                          {"cases", s.cases}});
  j["sanitizers"] = sanitizers;
  Json profiles = Json::array();  // information only: no verdict, time or rank comes from it
  for (const auto& p : r.profiles) profiles.push_back(profile::ProfileToJson(p));
  j["profiles"] = profiles;
  double prepare = 0, setup = 0, in_cases = 0;
  for (const auto& c : r.cases) {
    prepare += c.prepare_seconds;
    setup += c.setup_seconds;
    in_cases += c.seconds;
  }
  j["judge_time"] = {{"total_seconds", r.seconds},    {"build_seconds", b.seconds},
                     {"cases_seconds", in_cases},     {"prepare_seconds", prepare},
                     {"worker_setup_seconds", setup}, {"other_seconds", r.seconds - in_cases - b.seconds}};
  j["bandwidth"] = {{"ceiling_gbps", r.ceiling_gbps},
                    {"copy_ceiling_gbps", r.copy_gbps},
                    {"ceiling_source", r.ceiling_source},
                    {"peak_gbps", r.device ? r.device->peak_bandwidth_gbps : 0.0}};
  j["compute"] = {{"fp32_ceiling_gflops", r.fp32_gflops}};
  j["device"] = r.device ? DeviceInfoToJson(*r.device) : Json(nullptr);
  if (j["device"].is_object()) j["device"].erase("type");
  return j;
}

void JsonReporter::Write(const RunReport& report, std::ostream& out) const {
  out << ReportToJson(report).dump(2) << "\n";
}

}  // namespace judge

namespace judge {
namespace {

double Number(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;  // null (non-finite) reads as 0
}

// A section of the report, or an empty one: a report read back is input (merge), and a const
// Json's operator[] may not be asked for a key it lacks.
const Json& Member(const Json& j, const char* key) {
  static const Json kEmpty = Json::object();
  auto it = j.find(key);
  return it != j.end() ? *it : kEmpty;
}

std::string Text(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

SampleStats StatsFromJson(const Json& j) {
  SampleStats s;
  s.count = j.value("samples", 0);
  s.median = Number(j, "median_ms");
  s.mean = Number(j, "mean_ms");
  s.min = Number(j, "min_ms");
  s.max = Number(j, "max_ms");
  s.q1 = Number(j, "q1_ms");
  s.q3 = Number(j, "q3_ms");
  s.stddev = Number(j, "stddev_ms");
  s.noise = Number(j, "noise");
  return s;
}

CheckResult CheckFromJson(const Json& j) {
  CheckResult c;
  c.passed = j.value("passed", false);
  c.elements = j.value("elements", int64_t(0));
  c.mismatches = j.value("mismatches", int64_t(0));
  c.non_finite = j.value("non_finite", int64_t(0));
  c.worst_index = j.value("worst_index", int64_t(-1));
  c.expected = Number(j, "expected");
  c.got = Number(j, "got");
  c.abs_error = Number(j, "abs_error");
  c.rel_error = Number(j, "rel_error");
  c.tolerance = Number(j, "tolerance");
  c.tolerance_used = Number(j, "tolerance_used");
  return c;
}

CaseKind KindFromName(const std::string& name) {
  for (CaseKind k :
       {CaseKind::kExample, CaseKind::kFunctional, CaseKind::kEdge, CaseKind::kPerformance, CaseKind::kStress})
    if (CaseKindName(k) == name) return k;
  return CaseKind::kFunctional;
}

CaseResult CaseFromJson(const Json& j) {
  CaseResult c;
  c.name = Text(j, "name");
  c.kind = KindFromName(Text(j, "kind"));
  c.note = Text(j, "note");
  if (j.contains("scalars")) c.scalars = j["scalars"].get<ScalarValues>();
  c.verdict = VerdictFromShort(Text(j, "verdict")).value_or(Verdict::kInternalError);
  c.detail = Text(j, "detail");
  if (j.contains("check")) c.check = CheckFromJson(j["check"]);
  if (j.contains("timed_check")) c.timed_check = CheckFromJson(j["timed_check"]);
  if (j.contains("timing")) {
    const Json& t = j["timing"];
    c.event = StatsFromJson(t.value("device", Json::object()));
    c.wall = StatsFromJson(t.value("host_wall", Json::object()));
    if (t.contains("hot")) c.hot = StatsFromJson(t["hot"]);
    c.warmup_calls = t.value("warmup_calls", 0);
    c.gbps = Number(t, "gbps");
    c.gflops = Number(t, "gflops");
    c.roofline_pct = Number(t, "pct_of_ceiling");
    const std::string bound = Text(t, "bound");
    c.bound = bound == "memory" ? Bound::kMemory : bound == "compute" ? Bound::kCompute : Bound::kUnknown;
    c.sm_clock_mhz = Number(t, "sm_clock_mhz");
    c.raw_event_median_ms = Number(t, "raw_median_ms");
    c.window_correction_ms = Number(t, "window_correction_ms");
    c.throttled_discarded = t.value("throttled_discarded", 0);
    const Json audit = t.value("audit", Json::object());
    c.audit.unseen_ms = Number(audit, "unseen_ms");
    c.audit.escaped = audit.value("escaped", false);
    c.audit.overhead_wall_ms = Number(audit, "overhead_wall_ms");
    c.overhead_event_ms = Number(audit, "overhead_event_ms");
    c.audit.honest_median_ms = Number(audit, "median_ms");
    const Json judge_clock = t.value("judge_clock", Json::object());
    c.judge_clock.ms = Number(judge_clock, "ms");
    c.judge_clock.calibration_ms = Number(judge_clock, "calibration_ms");
    c.judge_clock.spread_ms = Number(judge_clock, "spread_ms");
    c.judge_clock.note = judge_clock.value("note", "");
    const Json samples = t.value("samples", Json::object());
    const Json ms = samples.value("ms", Json::array()), variant = samples.value("variant", Json::array()),
               clock = samples.value("clock_mhz", Json::array()), process = samples.value("process", Json::array());
    for (size_t i = 0; i < ms.size(); ++i)
      c.samples.push_back({ms[i].is_number() ? ms[i].get<double>() : 0.0,
                           i < variant.size() ? variant[i].get<int>() : 0,
                           i < clock.size() && clock[i].is_number() ? clock[i].get<double>() : 0.0,
                           i < process.size() ? process[i].get<int>() : 0});
  }
  c.input_variants = j.value("input_variants", 1);
  c.calls_checked = j.value("calls_checked", 0);
  if (j.contains("deterministic") && j["deterministic"].is_boolean()) c.deterministic = j["deterministic"].get<bool>();
  if (j.contains("flags")) c.flags = j["flags"].get<std::vector<std::string>>();
  c.min_bytes = j.value("min_bytes", int64_t(0));
  const Json& work = Member(j, "work");
  c.work = Work{work.value("bytes_read", int64_t(0)), work.value("bytes_written", int64_t(0)), Number(work, "flops")};
  c.seconds = Number(j, "seconds");
  c.prepare_seconds = Number(j, "prepare_seconds");
  c.setup_seconds = Number(j, "setup_seconds");
  c.worker_stdout = Text(j, "stdout");
  c.worker_stderr = Text(j, "stderr");
  c.output_truncated = j.value("output_truncated", false);
  return c;
}

}  // namespace

Expected<RunReport> ReportFromJson(const Json& j) {
  if (!j.is_object() || j.value("schema", "") != "gpu-judge.report")
    return MakeError(ErrorCode::kBadInput, "not a gpu-judge report (schema \"gpu-judge.report\" expected)");
  if (j.value("schema_version", 0) != kReportSchemaVersion)
    return MakeError(ErrorCode::kBadInput, "report schema version " + std::to_string(j.value("schema_version", 0)) +
                                               ", this judge reads version " + std::to_string(kReportSchemaVersion));
  RunReport r;
  try {
    r.judge_version = Text(j, "judge_version");
    r.started_at = Text(j, "started_at");
    r.seconds = Number(j, "seconds");
    r.submission_path = Text(Member(j, "submission"), "path");
    r.submission_sha256 = Text(Member(j, "submission"), "sha256");
    r.problem = Text(Member(j, "problem"), "name");
    r.tolerance = Tolerance{Number(Member(j, "problem"), "atol"), Number(Member(j, "problem"), "rtol")};
    r.check = Text(Member(j, "problem"), "check");
    r.verdict = VerdictFromShort(Text(j, "verdict")).value_or(Verdict::kInternalError);
    r.exit_code = ExitCode(j.value("exit_code", int(ExitCode::kInternalError)));
    r.message = Text(j, "message");
    if (j.contains("warnings")) r.warnings = j["warnings"].get<std::vector<std::string>>();
    r.protections = SandboxReportFromJson(j.value("protections", Json::array()));
    const Json& b = Member(j, "build");
    r.build.attempted = b.value("attempted", false);
    r.build.ok = b.value("ok", false);
    r.build.prebuilt = b.value("prebuilt", false);
    r.build.cache_hit = b.value("cache_hit", false);
    r.build.compiler = Text(b, "compiler");
    r.build.target = Text(b, "target");
    r.build.seconds = Number(b, "seconds");
    r.build.compile_seconds = Number(b, "compile_seconds");
    r.build.log = Text(b, "log");
    r.build.cache_key = Text(b, "cache_key");
    r.build.sandbox = SandboxReportFromJson(b.value("sandbox", Json::array()));
    for (const auto& c : j.at("cases")) r.cases.push_back(CaseFromJson(c));
    r.ceiling_gbps = Number(Member(j, "bandwidth"), "ceiling_gbps");
    r.copy_gbps = Number(Member(j, "bandwidth"), "copy_ceiling_gbps");
    r.fp32_gflops = Number(Member(j, "compute"), "fp32_ceiling_gflops");
    r.ceiling_source = Text(Member(j, "bandwidth"), "ceiling_source");
    if (j.contains("device") && j["device"].is_object()) r.device = DeviceInfoFromJson(j["device"]);
    if (!r.cases.empty() && r.cases.front().event.count) r.flush_mode = Text(j["cases"][0]["timing"], "l2_flush");
    for (const auto& s : j.value("sanitizers", Json::array()))
      r.sanitizers.push_back({Text(s, "tool"), s.value("ran", false), s.value("errors", 0), s.value("warnings", 0),
                              Text(s, "summary"), Text(s, "findings"), Number(s, "seconds"), s.value("cases", 0)});
    for (const auto& p : j.value("profiles", Json::array())) {
      auto profiled = profile::ProfileFromJson(p);
      if (!profiled) return profiled.error();
      r.profiles.push_back(std::move(*profiled));
    }
  } catch (const std::exception& e) {
    return MakeError(ErrorCode::kBadInput, std::string("malformed gpu-judge report: ") + e.what());
  }
  return r;
}

}  // namespace judge

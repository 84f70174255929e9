// SPDX-License-Identifier: MIT
#include <cmath>

#include "judge/protocol/messages.h"
#include "judge/report/reporter.h"

namespace judge {
namespace {

// JSON has no NaN or Infinity: they become null (and "non_finite" says why).
Json Finite(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json CheckToJson(const CheckResult& c) {
  return {{"passed", c.passed}, {"elements", c.elements}, {"mismatches", c.mismatches}, {"non_finite", c.non_finite},
          {"worst_index", c.worst_index}, {"expected", Finite(c.expected)}, {"got", Finite(c.got)},
          {"abs_error", Finite(c.abs_error)}, {"rel_error", Finite(c.rel_error)}, {"tolerance", c.tolerance},
          {"tolerance_used", Finite(c.tolerance_used)}};
}

Json StatsToJson(const SampleStats& s) {
  return {{"samples", s.count}, {"median_ms", s.median}, {"mean_ms", s.mean}, {"min_ms", s.min}, {"max_ms", s.max},
          {"q1_ms", s.q1}, {"q3_ms", s.q3}, {"iqr_ms", s.iqr()}, {"stddev_ms", s.stddev}, {"noise", s.noise}};
}

Json CaseToJson(const CaseResult& c, const RunReport& r) {
  Json j = {{"name", c.name}, {"kind", std::string(CaseKindName(c.kind))}, {"scalars", c.scalars},
            {"verdict", std::string(VerdictShort(c.verdict))}, {"verdict_code", int(c.verdict)},
            {"detail", c.detail}, {"min_bytes", c.min_bytes}, {"seconds", c.seconds},
            {"prepare_seconds", c.prepare_seconds}, {"setup_seconds", c.setup_seconds}};
  if (c.check) j["check"] = CheckToJson(*c.check);
  if (c.timed_check) j["timed_check"] = CheckToJson(*c.timed_check);
  if (c.event.count) {
    j["timing"] = {{"device", StatsToJson(c.event)}, {"host_wall", StatsToJson(c.wall)},
                   {"warmup_calls", c.warmup_calls}, {"gbps", c.gbps}, {"l2_flushed", true},
                   {"pct_of_ceiling", r.ceiling_gbps > 0 ? Json(100 * c.gbps / r.ceiling_gbps) : Json(nullptr)},
                   {"pct_of_peak", r.device && r.device->peak_bandwidth_gbps > 0 ? Json(100 * c.gbps / r.device->peak_bandwidth_gbps) : Json(nullptr)},
                   {"audit", {{"unseen_ms", c.audit.unseen_ms}, {"escaped", c.audit.escaped},
                              {"overhead_wall_ms", c.audit.overhead_wall_ms}, {"median_ms", c.audit.honest_median_ms}}},
                   {"l2_flush", r.flush_mode}, {"sm_clock_mhz", c.sm_clock_mhz},
                   {"throttled_discarded", c.throttled_discarded}};
    if (c.hot.count) j["timing"]["hot"] = StatsToJson(c.hot);  // labelled: the L2 was not flushed
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
  Json j = {{"schema", "gpu-judge.report"}, {"schema_version", kReportSchemaVersion},
            {"judge_version", r.judge_version}, {"started_at", r.started_at}, {"seconds", r.seconds},
            {"submission", {{"path", r.submission_path}, {"sha256", r.submission_sha256}}},
            {"problem", {{"name", r.problem}, {"atol", r.tolerance.atol}, {"rtol", r.tolerance.rtol}}},
            {"verdict", std::string(VerdictShort(r.verdict))}, {"verdict_code", int(r.verdict)},
            {"verdict_text", std::string(VerdictLong(r.verdict))}, {"exit_code", int(r.exit_code)},
            {"message", r.message}, {"warnings", r.warnings}, {"protections", SandboxReportToJson(r.protections)},
            {"build", {{"attempted", b.attempted}, {"ok", b.ok}, {"prebuilt", b.prebuilt}, {"cache_hit", b.cache_hit},
                       {"compiler", b.compiler}, {"target", b.target}, {"flags", b.flags}, {"seconds", b.seconds},
                       {"compile_seconds", b.compile_seconds}, {"log", b.log}, {"cache_key", b.cache_key}}},
            {"summary", {{"cases", r.cases.size()}, {"by_verdict", counts}}},
            {"cases", cases}};
  Json sanitizers = Json::array();
  for (const auto& s : r.sanitizers)
    sanitizers.push_back({{"tool", s.tool}, {"ran", s.ran}, {"errors", s.errors}, {"warnings", s.warnings},
                          {"summary", s.summary}, {"findings", s.findings}, {"seconds", s.seconds}, {"cases", s.cases}});
  j["sanitizers"] = sanitizers;
  double prepare = 0, setup = 0, in_cases = 0;
  for (const auto& c : r.cases) { prepare += c.prepare_seconds; setup += c.setup_seconds; in_cases += c.seconds; }
  j["judge_time"] = {{"total_seconds", r.seconds}, {"build_seconds", b.seconds}, {"cases_seconds", in_cases},
                     {"prepare_seconds", prepare}, {"worker_setup_seconds", setup},
                     {"other_seconds", r.seconds - in_cases - b.seconds}};
  j["bandwidth"] = {{"ceiling_gbps", r.ceiling_gbps}, {"ceiling_source", r.ceiling_source},
                    {"peak_gbps", r.device ? r.device->peak_bandwidth_gbps : 0.0}};
  j["device"] = r.device ? DeviceInfoToJson(*r.device) : Json(nullptr);
  if (j["device"].is_object()) j["device"].erase("type");
  return j;
}

void JsonReporter::Write(const RunReport& report, std::ostream& out) const { out << ReportToJson(report).dump(2) << "\n"; }

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/grade/grading_policy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace judge {

namespace {

double Round(double points) { return std::round(points * 1e4) / 1e4; }  // 80/7 x 7 is 80, not 80.00000000000001

}  // namespace

double Score::total() const {
  double t = performance;
  for (const auto& c : cases) t += c.points;
  return Round(t);
}

double Score::max_total() const {
  double t = performance_max;
  for (const auto& c : cases) t += c.max_points;
  return Round(t);
}

Expected<GradingPolicy> GradingPolicyFromJson(const Json& j, const std::string& where) {
  auto bad = [&](const std::string& why) {
    return MakeError(ErrorCode::kBadInput, where + ": " + why + " (see docs/GRADING.md)");
  };
  if (!j.is_object()) return bad("expected a JSON object");
  GradingPolicy p;
  try {
    p.correctness_points = j.value("correctness_points", p.correctness_points);
    p.performance_points = j.value("performance_points", p.performance_points);
    if (j.contains("performance")) {
      const Json& perf = j.at("performance");
      p.performance_case = perf.value("case", "");
      p.metric = perf.value("metric", p.metric);
      p.zero_at = perf.value("zero_at", p.zero_at);
      p.full_at = perf.value("full_at", p.full_at);
    }
  } catch (const std::exception& e) {
    return bad(e.what());
  }
  if (p.correctness_points < 0 || p.performance_points < 0) return bad("points must not be negative");
  if (p.metric != "pct_of_ceiling" && p.metric != "gbps" && p.metric != "median_us")
    return bad("performance.metric must be pct_of_ceiling, gbps or median_us, not \"" + p.metric + "\"");
  if (p.zero_at == p.full_at) return bad("performance.zero_at and full_at must differ");
  return p;
}

Expected<GradingPolicy> LoadGradingPolicy(const std::string& path) {
  auto j = ParseJsonFile(path);
  if (!j) return j.error();
  return GradingPolicyFromJson(*j, path);
}

Json GradingPolicyToJson(const GradingPolicy& p) {
  return {{"correctness_points", p.correctness_points},
          {"performance_points", p.performance_points},
          {"performance",
           {{"case", p.performance_case}, {"metric", p.metric}, {"zero_at", p.zero_at}, {"full_at", p.full_at}}}};
}

namespace {

const CaseResult* PerformanceCase(const RunReport& r, const std::string& name) {
  if (name.empty()) return r.PrimaryPerformanceCase();
  for (const auto& c : r.cases)
    if (c.name == name) return &c;
  return nullptr;
}

double MetricOf(const RunReport& r, const CaseResult& c, const std::string& metric) {
  if (metric == "gbps") return c.gbps;
  if (metric == "median_us") return c.FigureMs() * 1e3;
  (void)r;
  return c.roofline_pct;  // of the ceiling that binds the problem's work on this GPU
}

}  // namespace

Score ScoreRun(const RunReport& r, const GradingPolicy& p) {
  Score s;
  bool all_accepted = !r.cases.empty();
  double share = r.cases.empty() ? 0 : p.correctness_points / double(r.cases.size());
  for (const auto& c : r.cases) {
    bool ok = c.verdict == Verdict::kAccepted;
    all_accepted &= ok;
    s.cases.push_back({c.name, ok ? share : 0, share});
  }
  s.performance_max = p.performance_points;
  const CaseResult* perf = PerformanceCase(r, p.performance_case);
  if (p.performance_points <= 0) return s;
  if (!perf) {
    s.performance_note = "no performance case \"" + p.performance_case + "\" in this run";
    return s;
  }
  if (!all_accepted) {
    s.performance_note = "performance points need every case accepted";
    return s;
  }
  if (!perf->flags.empty()) {
    s.performance_note = "the performance figure is flagged: " + perf->flags.front();
    return s;
  }
  s.metric_value = MetricOf(r, *perf, p.metric);
  double fraction = std::clamp((s.metric_value - p.zero_at) / (p.full_at - p.zero_at), 0.0, 1.0);
  s.performance = p.performance_points * fraction;
  char note[160];
  std::snprintf(note, sizeof note, "%s %s = %.1f: %.0f%% of the performance points (0 at %g, all at %g)",
                perf->name.c_str(), p.metric.c_str(), s.metric_value, 100 * fraction, p.zero_at, p.full_at);
  s.performance_note = note;
  return s;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/report/reporter.h"

#include <cstdio>
#include <sstream>

namespace judge {

std::optional<std::string> OfficialNameOfTwin(std::string_view name) {
  if (name.size() <= kHiddenSuffix.size() || name.substr(name.size() - kHiddenSuffix.size()) != kHiddenSuffix)
    return std::nullopt;
  return std::string(name.substr(0, name.size() - kHiddenSuffix.size()));
}

const CaseResult* RunReport::PrimaryPerformanceCase() const {
  for (const auto& c : cases)
    if (c.kind == CaseKind::kPerformance) return &c;
  return nullptr;
}

std::unique_ptr<Reporter> MakeReporter(const std::string& format, const ReporterOptions& options) {
  if (format == "text") return std::make_unique<TextReporter>(options.color);
  if (format == "json") return std::make_unique<JsonReporter>();
  if (format == "junit") return std::make_unique<JunitReporter>();
  if (format == "gradescope") return std::make_unique<GradescopeReporter>(options.grading);
  if (format == "markdown") return std::make_unique<MarkdownReporter>();
  if (format == "html") return std::make_unique<HtmlReporter>();
  return nullptr;
}

std::string Render(const Reporter& reporter, const RunReport& report) {
  std::ostringstream out;
  reporter.Write(report, out);
  return out.str();
}

void ReporterMultiplex::Write(const RunReport& report) const {
  for (const auto& [reporter, out] : sinks_) {
    reporter->Write(report, *out);
    out->flush();
  }
}

Ceilings CeilingsOf(const RunReport& r) { return Ceilings{r.ceiling_gbps, r.copy_gbps, r.fp32_gflops, ""}; }

double BindingCeiling(const CaseResult& c, const RunReport& r) {
  switch (c.bound) {
    case Bound::kMemory: return MemoryCeilingGbps(CeilingsOf(r));
    case Bound::kCompute: return r.fp32_gflops;
    case Bound::kUnknown: return 0;
  }
  return 0;
}

std::string RooflineText(const CaseResult& c, const RunReport& r) {
  const double ceiling = BindingCeiling(c, r);
  if (c.roofline_pct <= 0 || ceiling <= 0) return "";
  char buf[96];
  if (c.bound == Bound::kCompute)
    std::snprintf(buf, sizeof buf, "%.0f%% of the %.0f GFLOP/s FP32 ceiling", c.roofline_pct, ceiling);
  else
    std::snprintf(buf, sizeof buf, "%.0f%% of the %.0f GB/s memory ceiling", c.roofline_pct, ceiling);
  return buf;
}

std::string RooflineShort(const CaseResult& c) {
  if (c.roofline_pct <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%% %s", c.roofline_pct, c.bound == Bound::kCompute ? "fp32" : "mem");
  return buf;
}

std::string FormatMs(double ms) {
  char buf[32];
  if (ms <= 0) return "-";
  if (ms < 1)
    std::snprintf(buf, sizeof buf, "%.2f us", ms * 1e3);
  else if (ms < 1000)
    std::snprintf(buf, sizeof buf, "%.2f ms", ms);
  else
    std::snprintf(buf, sizeof buf, "%.2f s", ms / 1e3);
  return buf;
}

std::string FormatCount(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (n < 0 ? "-" : "") + out;
}

std::string FormatScalars(const ScalarValues& s) {
  std::string out;
  for (const auto& [k, v] : s) out += (out.empty() ? "" : " ") + k + "=" + FormatCount(v);
  return out;
}

}  // namespace judge

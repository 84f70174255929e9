// SPDX-License-Identifier: MIT
// One run as a self-contained HTML page: the result, a bandwidth chart of the performance cases
// against the measured ceiling (inline SVG), and every case.
#include <cstdio>
#include <sstream>

#include "judge/report/markup.h"
#include "judge/report/reporter.h"
#include "judge/util/fs.h"

namespace judge {

void HtmlReporter::Write(const RunReport& r, std::ostream& out) const {
  std::ostringstream b;
  std::string name = Basename(r.submission_path);
  int accepted = 0;
  for (const auto& c : r.cases) accepted += c.verdict == Verdict::kAccepted;
  b << "<h1>" << EscapeXml(name) << ": <span class=\"" << VerdictClass(r.verdict) << "\">" << VerdictShort(r.verdict)
    << "</span> " << EscapeXml(std::string(VerdictLong(r.verdict))) << "</h1>\n";
  b << "<p class=\"muted\">" << accepted << "/" << r.cases.size() << " cases accepted; problem "
    << EscapeXml(r.problem);
  if (r.device) b << "; " << EscapeXml(r.device->name);
  b << "; " << EscapeXml(r.build.compiler) << "; judged " << EscapeXml(r.started_at) << " in "
    << EscapeXml(FormatMs(r.seconds * 1e3)) << "; sha256 " << EscapeXml(r.submission_sha256.substr(0, 12)) << "</p>\n";
  if (!r.message.empty()) b << "<p>" << EscapeXml(r.message) << "</p>\n";
  if (r.build.attempted && !r.build.ok) b << "<h2>Compile error</h2>\n<pre>" << EscapeXml(r.build.log) << "</pre>\n";

  // A compute-bound problem is charted in GFLOP/s against the FP32 ceiling, others in GB/s.
  const CaseResult* primary = r.PrimaryPerformanceCase();
  const bool compute = primary && primary->bound == Bound::kCompute;
  BarChart chart;
  chart.title =
      compute ? "FP32 rate of the performance cases (cold L2)" : "Bandwidth of the performance cases (cold L2)";
  chart.axis = compute ? "GFLOP/s" : "GB/s";
  chart.reference = compute ? r.fp32_gflops : r.ceiling_gbps;
  const char* unit = compute ? "GFLOP/s" : "GB/s";
  chart.reference_label =
      std::string(compute ? "measured FP32 ceiling " : "measured read ceiling ") + RateText(chart.reference, unit);
  for (const auto& c : r.cases)
    if (c.kind == CaseKind::kPerformance && c.event.count)
      chart.bars.push_back({c.name + " (" + FormatScalars(c.scalars) + ")", compute ? c.gflops : c.gbps,
                            RateText(compute ? c.gflops : c.gbps, unit) + ", " + FormatMs(c.FigureMs()) +
                                (c.roofline_pct > 0 ? ", " + RooflineText(c, r) : ""),
                            c.verdict != Verdict::kAccepted ? "bar bad"
                            : !c.flags.empty()              ? "bar flagged"
                                                            : "bar"});
  if (!chart.bars.empty()) b << RenderBarChart(chart);

  b << "<h2>Cases</h2>\n<table>\n<tr><th>case</th><th>kind</th><th>size</th><th>verdict</th><th "
       "class=\"num\">median</th>"
       "<th class=\"num\">GB/s</th><th class=\"num\">samples</th><th>detail</th></tr>\n";
  for (const auto& c : r.cases) {
    std::string detail = c.detail;
    for (const auto& f : c.flags) detail += (detail.empty() ? "flagged: " : "; flagged: ") + f;
    b << "<tr><td>" << EscapeXml(c.name) << "</td><td>" << CaseKindName(c.kind) << "</td><td>"
      << EscapeXml(FormatScalars(c.scalars)) << "</td><td class=\"" << VerdictClass(c.verdict) << "\">"
      << VerdictShort(c.verdict) << "</td><td class=\"num\">" << EscapeXml(FormatMs(c.FigureMs()))
      << "</td><td class=\"num\">" << (c.gbps > 0 ? GbpsText(c.gbps) : "-") << "</td><td class=\"num\">"
      << c.event.count << "</td><td>" << EscapeXml(detail) << "</td></tr>\n";
  }
  b << "</table>\n";
  for (const auto& w : r.warnings) b << "<p class=\"muted\">warning: " << EscapeXml(w) << "</p>\n";
  out << HtmlPage(name + " - gpu-judge", b.str());
}

}  // namespace judge

// SPDX-License-Identifier: MIT
// One run as a self-contained HTML page: the result, a bandwidth chart of the performance cases
// against the measured ceiling (inline SVG), and every case.
#include <cstdio>
#include <sstream>

#include "judge/profile/profile.h"
#include "judge/report/markup.h"
#include "judge/report/reporter.h"
#include "judge/util/fs.h"

namespace judge {

namespace {

// --profile: the roofline of the profiled kernels against the measured ceilings, each kernel's
// numbers, and the diagnosis (information only; docs/PROFILE.md).
void WriteProfiles(const RunReport& r, std::ostream& b) {
  for (const auto& p : r.profiles) {
    b << "<h2>Why is it slow: " << EscapeXml(p.case_name) << " under Nsight Compute</h2>\n";
    if (p.status != profile::ProfileStatus::kProfiled) {
      b << "<p class=\"muted\">not profiled (" << profile::ProfileStatusName(p.status) << "): " << EscapeXml(p.message)
        << "</p>\n";
      continue;
    }
    RooflineChart chart{"Kernels on the roofline (FP32)", p.gpu.read_gbps, p.gpu.fp32_gflops, {}};
    std::vector<std::string> off_chart;
    for (size_t i = 0; i < p.kernels.size(); ++i) {
      const std::string label = std::to_string(i + 1) + " " + p.kernels[i].name;
      if (auto dot = profile::KernelRooflineDot(p.kernels[i]))
        chart.marks.push_back({label, dot->intensity, dot->gflops});
      else {
        chart.marks.push_back({label, 0, 0});
        off_chart.push_back(label);
      }
    }
    b << RenderRoofline(chart);
    if (!off_chart.empty()) {
      b << "<p class=\"muted\">not on the chart (no FP32 work measured):";
      for (const auto& k : off_chart) b << " " << EscapeXml(k) << ";";
      b << "</p>\n";
    }
    b << "<table>\n<tr><th>#</th><th>kernel</th><th class=\"num\">time</th><th class=\"num\">DRAM GB/s</th>"
         "<th class=\"num\">grid x block</th></tr>\n";
    for (size_t i = 0; i < p.kernels.size(); ++i) {
      const auto& k = p.kernels[i];
      auto gbps = k.DramGbps();
      b << "<tr><td>" << i + 1 << "</td><td>" << EscapeXml(k.name) << "</td><td class=\"num\">"
        << (k.duration_ns ? EscapeXml(FormatMs(*k.duration_ns / 1e6)) : "-") << "</td><td class=\"num\">"
        << (gbps ? GbpsText(*gbps) : "-") << "</td><td class=\"num\">" << k.Blocks() << " x " << k.ThreadsPerBlock()
        << "</td></tr>\n";
    }
    b << "</table>\n<ul>\n";
    for (const auto& f : p.diagnosis.findings)
      b << "<li><b>" << EscapeXml(f.code) << "</b> (" << profile::SeverityName(f.severity)
        << (f.kernel.empty() ? "" : ", " + EscapeXml(f.kernel)) << "): " << EscapeXml(f.message)
        << "<br><span class=\"muted\">next: " << EscapeXml(f.next_step) << "</span></li>\n";
    if (p.diagnosis.findings.empty()) b << "<li>" << EscapeXml(p.diagnosis.headline) << "</li>\n";
    b << "</ul>\n";
  }
}

}  // namespace

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

  WriteProfiles(r, b);

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

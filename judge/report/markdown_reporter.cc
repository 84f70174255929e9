// SPDX-License-Identifier: MIT
// A short Markdown summary of one run: the result line, the cases that failed, the performance
// figures. Meant for a pull-request comment or a course page; the JSON report has everything.
#include <cstdio>

#include "judge/report/reporter.h"
#include "judge/util/fs.h"

namespace judge {
namespace {

std::string Cell(std::string s) {  // a table cell cannot hold '|' or a newline
  for (char& c : s)
    if (c == '|' || c == '\n') c = c == '|' ? '/' : ' ';
  return s.size() > 160 ? s.substr(0, 157) + "..." : s;
}

std::string Pct(double v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", v);
  return buf;
}

}  // namespace

void MarkdownReporter::Write(const RunReport& r, std::ostream& out) const {
  int accepted = 0;
  for (const auto& c : r.cases) accepted += c.verdict == Verdict::kAccepted;
  out << "### `" << Basename(r.submission_path) << "`: " << VerdictShort(r.verdict) << " (" << VerdictLong(r.verdict)
      << ")\n\n";
  out << accepted << "/" << r.cases.size() << " cases accepted";
  if (r.device) out << " on " << r.device->name;
  out << ", judged in " << FormatMs(r.seconds * 1e3) << ".";
  if (!r.message.empty()) out << " " << Cell(r.message);
  out << "\n\n";
  if (r.build.attempted && !r.build.ok) {
    out << "```\n" << r.build.log.substr(0, 4000) << "\n```\n";
    return;
  }
  bool header = false;
  for (const auto& c : r.cases) {
    if (c.kind != CaseKind::kPerformance || !c.event.count) continue;
    if (!header)
      out << "| performance case | size | verdict | median | GB/s | GFLOP/s | % of ceiling |\n"
             "|---|---|---|---:|---:|---:|---:|\n";
    header = true;
    out << "| " << c.name << " | " << FormatScalars(c.scalars) << " | " << VerdictShort(c.verdict) << " | "
        << FormatMs(c.FigureMs()) << " | " << int(c.gbps + 0.5) << " | " << int(c.gflops + 0.5) << " | "
        << (c.roofline_pct > 0 ? Pct(c.roofline_pct) + " " + std::string(BoundName(c.bound)) : "-") << " |\n";
  }
  header = false;
  for (const auto& c : r.cases) {
    if (c.verdict == Verdict::kAccepted && c.flags.empty()) continue;
    if (!header) out << "\n| case | size | verdict | why |\n|---|---|---|---|\n";
    header = true;
    std::string why = c.detail;
    for (const auto& f : c.flags) why += (why.empty() ? "flagged: " : "; flagged: ") + f;
    out << "| " << c.name << " | " << FormatScalars(c.scalars) << " | " << VerdictShort(c.verdict) << " | " << Cell(why)
        << " |\n";
  }
  for (const auto& w : r.warnings) out << "\n> warning: " << Cell(w) << "\n";
}

}  // namespace judge

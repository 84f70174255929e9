// SPDX-License-Identifier: MIT
#include <cmath>
#include <cstdio>
#include <sstream>

#include "judge/profile/profile.h"
#include "judge/report/reporter.h"
#include "judge/util/utf8.h"

namespace judge {
namespace {

std::string Pct(double used) {
  if (!std::isfinite(used)) return "NaN/Inf";
  char buf[32];
  if (used >= 100)
    std::snprintf(buf, sizeof buf, "%.3g x", used);  // far over: say how many times
  else
    std::snprintf(buf, sizeof buf, "%.1f%%", used * 100);
  return buf;
}

std::string Gbps(double g) {
  if (g <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, g < 10 ? "%.2f" : "%.0f", g);
  return buf;
}

std::string Paint(const std::string& s, Verdict v, bool color) {
  if (!color) return s;
  const char* code = v == Verdict::kAccepted ? "32" : v == Verdict::kInternalError ? "35" : "31";
  return std::string("\033[") + code + "m" + s + "\033[0m";
}

std::string Row(const std::vector<std::string>& cols, const std::vector<int>& widths) {
  std::string line;
  for (size_t i = 0; i < cols.size(); ++i) {
    std::string c = cols[i];
    int w = widths[i];
    if (w < 0)
      c = std::string(size_t(std::max(0, -w - int(c.size()))), ' ') + c;  // right-aligned
    else
      c += std::string(size_t(std::max(0, w - int(c.size()))), ' ');
    line += (i ? "  " : "") + c;
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + "\n";
}

// "sandbox: rlimits network_namespace (OFF) ...": which layers confined the worker, or the compiler.
void WriteLayers(const std::string& label, const SandboxReport& layers, std::ostream& out) {
  if (layers.empty()) return;
  out << label;
  for (const auto& p : layers) out << " " << p.name << (p.active ? "" : " (OFF)");
  out << "\n";
}

void WriteHeader(const RunReport& r, std::ostream& out) {
  out << "judge " << r.judge_version << " | problem " << r.problem << " | " << r.submission_path;
  if (!r.submission_sha256.empty()) out << " (sha256 " << r.submission_sha256.substr(0, 12) << ")";
  out << "\n";
  if (r.device) {
    const DeviceInfo& d = *r.device;
    out << "device: " << d.name;
    if (d.kind == DeviceKind::kCuda)
      out << " (sm_" << d.cc_major << d.cc_minor << ", " << d.sm_count << " SMs, " << (d.l2_bytes >> 20)
          << " MB L2, driver CUDA " << d.driver_version << ")";
    out << "\n";
  }
  WriteLayers("sandbox:", r.protections, out);
  const BuildInfo& b = r.build;
  if (b.attempted) {
    out << "build: " << (b.prebuilt ? "prebuilt library" : b.compiler + " for " + b.target);
    if (!b.prebuilt) out << (b.cache_hit ? ", from cache" : ", compiled in " + FormatMs(b.compile_seconds * 1e3));
    out << "\n";
    WriteLayers("build sandbox:", b.sandbox, out);
  }
  out << "\n";
}

void WriteTable(const RunReport& r, std::ostream& out, bool color) {
  const std::vector<int> w = {-3, 30, 11, 15, 7, -9, -10, -8, -9, -9, -7};
  out << Row({"#", "case", "kind", "size", "verdict", "err/tol", "median", "GB/s", "GFLOP/s", "roofline", "samples"},
             w);
  int i = 0;
  for (const auto& c : r.cases) {
    std::string used = c.check ? Pct(c.check->tolerance_used) : "-";
    std::string verdict = std::string(VerdictShort(c.verdict));
    std::string row = Row({std::to_string(++i), c.name, std::string(CaseKindName(c.kind)), FormatScalars(c.scalars),
                           verdict, used, FormatMs(c.FigureMs()), Gbps(c.gbps), Gbps(c.gflops), RooflineShort(c),
                           c.event.count ? std::to_string(c.event.count) : "-"},
                          w);
    if (color) {
      size_t at = row.find("  " + verdict + " ");
      if (at != std::string::npos) row.replace(at + 2, verdict.size(), Paint(verdict, c.verdict, true));
    }
    out << row;
  }
}

void WriteFlags(const RunReport& r, std::ostream& out) {
  bool any = false;
  for (const auto& c : r.cases) {
    for (const auto& f : c.flags) {
      if (!any) out << "\nflagged (not ranked):\n";
      any = true;
      out << "  " << c.name << ": " << f << "\n";
    }
  }
  int nondeterministic = 0;
  for (const auto& c : r.cases) nondeterministic += c.deterministic.has_value() && !*c.deterministic;
  if (nondeterministic)
    out << "\nnote: " << nondeterministic << " case(s) gave bitwise-different outputs for the same input on repeated "
        << "calls (float atomics finish in a different order each time); not a failure.\n";
}

// The measurement behind each performance case's figure, for a reader who wants to trust it.
void WriteMeasurement(const RunReport& r, std::ostream& out) {
  bool any = false;
  for (const auto& c : r.cases) {
    if (c.kind != CaseKind::kPerformance || !c.event.count) continue;
    if (!any) {
      out << "\nmeasurement (performance cases; cold = L2 evicted by a " << r.flush_mode << " flush before every call";
      if (c.window_correction_ms > 0)
        out << "; times net of the " << FormatMs(c.window_correction_ms) << " an empty event window takes";
      out << "):\n";
    }
    any = true;
    char line[256];
    std::snprintf(line, sizeof line, "  %s: cold median %s, IQR %s..%s, min %s, %d samples, noise %.2f%%",
                  c.name.c_str(), FormatMs(c.event.median).c_str(), FormatMs(c.event.q1).c_str(),
                  FormatMs(c.event.q3).c_str(), FormatMs(c.event.min).c_str(), c.event.count, 100 * c.event.noise);
    out << line;
    if (c.sm_clock_mhz > 0) out << ", SM clock " << int(c.sm_clock_mhz) << " MHz";
    if (c.throttled_discarded) out << ", " << c.throttled_discarded << " throttled sample(s) discarded";
    if (c.hot.count)
      out << "; hot (L2 not flushed) median " << FormatMs(c.hot.median) << " over " << c.hot.count << " samples";
    out << "\n";
  }
}

void WriteDetails(const RunReport& r, std::ostream& out) {
  bool any = false;
  for (const auto& c : r.cases) {
    if (c.verdict == Verdict::kAccepted || c.detail.empty()) continue;
    if (!any) out << "\nwhat went wrong:\n";
    any = true;
    // Details quote the submission (an exception's message, a signal's context) and its stderr is
    // its own: shown, never obeyed, by the terminal.
    out << "  " << c.name << ": " << VerdictShort(c.verdict) << " (" << VerdictLong(c.verdict) << ") - "
        << ForTerminal(c.detail) << "\n";
    if (!c.worker_stderr.empty()) out << "    stderr: " << ForTerminal(c.worker_stderr, 400) << "\n";
  }
}

void WriteSanitizers(const RunReport& r, std::ostream& out) {
  if (r.sanitizers.empty()) return;
  out << "\ncompute-sanitizer (small cases, one call each; information, not part of the verdict):\n";
  for (const auto& s : r.sanitizers) {
    out << "  " << s.tool << ": " << (s.ran ? s.summary : "did not run - " + s.summary);
    if (s.ran) out << " over " << s.cases << " cases in " << FormatMs(s.seconds * 1e3);
    out << "\n";
    if (s.errors + s.warnings > 0) {
      std::string first = s.findings.substr(0, 600);
      out << "    " << first << (s.findings.size() > 600 ? "    ...\n" : "");
    }
  }
}

void WriteProfiles(const RunReport& r, std::ostream& out) {
  for (const auto& p : r.profiles) out << "\n" << ForTerminal(profile::FormatProfileText(p));
}

void WriteSummary(const RunReport& r, std::ostream& out, bool color) {
  int accepted = 0;
  for (const auto& c : r.cases) accepted += c.verdict == Verdict::kAccepted;
  out << "\nresult: " << Paint(std::string(VerdictShort(r.verdict)), r.verdict, color) << " (" << VerdictLong(r.verdict)
      << "), " << accepted << "/" << r.cases.size() << " cases accepted";
  if (const CaseResult* p = r.PrimaryPerformanceCase(); p && p->event.count) {
    char noise[32];
    std::snprintf(noise, sizeof noise, "%.2f%%", p->event.noise * 100);
    out << "; " << p->name << " (" << FormatScalars(p->scalars) << "): median " << FormatMs(p->FigureMs()) << ", "
        << Gbps(p->gbps) << " GB/s";
    if (p->work.flops > 0) out << ", " << Gbps(p->gflops) << " GFLOP/s";
    out << ", noise " << noise;
    if (std::string roof = RooflineText(*p, r); !roof.empty()) out << " (" << roof << ")";
  }
  out << "; judged in " << FormatMs(r.seconds * 1e3) << "\n";
  if (!r.message.empty()) out << r.message << "\n";
  for (const auto& w : r.warnings) out << "warning: " << w << "\n";
}

}  // namespace

void TextReporter::Write(const RunReport& r, std::ostream& out) const {
  WriteHeader(r, out);
  if (r.build.attempted && !r.build.ok) {
    out << "compile error:\n" << (r.build.log.empty() ? "(no compiler output)\n" : ForTerminal(r.build.log)) << "\n";
  } else {
    WriteTable(r, out, color_);
    WriteMeasurement(r, out);
    WriteDetails(r, out);
    WriteFlags(r, out);
    WriteSanitizers(r, out);
    WriteProfiles(r, out);
  }
  WriteSummary(r, out, color_);
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/report/markup.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>

namespace judge {

std::string EscapeXml(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    // U+FFFE and U+FFFF (EF BF BE, EF BF BF): noncharacters XML 1.0 forbids like the controls.
    if (c == 0xEF && i + 2 < s.size() && uint8_t(s[i + 1]) == 0xBF && (uint8_t(s[i + 2]) & 0xFE) == 0xBE) {
      out += "?";
      i += 2;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
          out += "?";
        else
          out += char(c);
    }
  }
  return out;
}

namespace {

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

std::string RenderBarChart(const BarChart& c) {
  const double label_w = 290, plot_w = 430, text_w = 150, row_h = 22, top = 44, bottom = 34;
  const double width = label_w + plot_w + text_w,
               height = top + row_h * double(std::max<size_t>(c.bars.size(), 1)) + bottom;
  double hi = c.reference, lo = 0;
  for (const auto& b : c.bars) hi = std::max(hi, b.value);
  if (c.log_scale) {
    lo = hi;
    for (const auto& b : c.bars)
      if (b.value > 0) lo = std::min(lo, b.value);
    lo /= 2;
  }
  hi = hi > 0 ? hi * 1.05 : 1;
  auto x = [&](double v) {
    if (v <= 0) return label_w;
    double f = c.log_scale ? std::log10(v / lo) / std::log10(hi / lo) : v / hi;
    return label_w + plot_w * std::clamp(f, 0.0, 1.0);
  };
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" << Num(width) << "\" height=\""
    << Num(height) << "\" viewBox=\"0 0 " << Num(width) << " " << Num(height) << "\" role=\"img\" aria-label=\""
    << EscapeXml(c.title) << "\">\n";
  o << "<text class=\"title\" x=\"4\" y=\"16\">" << EscapeXml(c.title) << "</text>\n";
  for (size_t i = 0; i < c.bars.size(); ++i) {
    const Bar& b = c.bars[i];
    double y = top + row_h * double(i);
    std::string label = b.label.size() > 46 ? "..." + b.label.substr(b.label.size() - 43) : b.label;
    o << "<text class=\"label\" x=\"" << Num(label_w - 6) << "\" y=\"" << Num(y + 15) << "\" text-anchor=\"end\">"
      << EscapeXml(label) << "</text>";
    o << "<rect class=\"" << EscapeXml(b.css_class.empty() ? "bar" : b.css_class) << "\" x=\"" << Num(label_w)
      << "\" y=\"" << Num(y + 3) << "\" width=\"" << Num(x(b.value) - label_w) << "\" height=\"" << Num(row_h - 6)
      << "\"/>";
    o << "<text class=\"value\" x=\"" << Num(x(b.value) + 4) << "\" y=\"" << Num(y + 15) << "\">" << EscapeXml(b.text)
      << "</text>\n";
  }
  double axis_y = top + row_h * double(c.bars.size());
  o << "<line class=\"axis\" x1=\"" << Num(label_w) << "\" y1=\"" << Num(top) << "\" x2=\"" << Num(label_w)
    << "\" y2=\"" << Num(axis_y) << "\"/>\n";
  o << "<text class=\"axis\" x=\"" << Num(label_w + plot_w) << "\" y=\"" << Num(axis_y + 22)
    << "\" text-anchor=\"end\">" << EscapeXml(c.axis + (c.log_scale ? " (log scale)" : "")) << "</text>\n";
  if (c.reference > 0) {
    double rx = x(c.reference);
    o << "<line class=\"reference\" x1=\"" << Num(rx) << "\" y1=\"" << Num(top - 6) << "\" x2=\"" << Num(rx)
      << "\" y2=\"" << Num(axis_y) << "\"/>";
    o << "<text class=\"reference\" x=\"" << Num(rx) << "\" y=\"" << Num(top - 10) << "\" text-anchor=\"middle\">"
      << EscapeXml(c.reference_label) << "</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

std::string RenderRoofline(const RooflineChart& c) {
  const double left = 64, top = 36, plot_w = 520, plot_h = 260, width = left + plot_w + 24, height = top + plot_h + 44;
  const double ridge = c.gbps > 0 && c.gflops > 0 ? c.gflops / c.gbps : 1;
  double x_lo = ridge / 1000, x_hi = ridge * 100, y_lo = std::max(c.gflops, 1.0) / 1e5,
         y_hi = std::max(c.gflops, 1.0) * 2;
  for (const auto& m : c.marks) {
    if (m.intensity > 0) x_lo = std::min(x_lo, m.intensity / 2), x_hi = std::max(x_hi, m.intensity * 2);
    if (m.gflops > 0) y_lo = std::min(y_lo, m.gflops / 2), y_hi = std::max(y_hi, m.gflops * 2);
  }
  auto fx = [&](double v) {
    return left + plot_w * std::clamp(std::log10(v / x_lo) / std::log10(x_hi / x_lo), 0.0, 1.0);
  };
  auto fy = [&](double v) {
    return top + plot_h * (1 - std::clamp(std::log10(v / y_lo) / std::log10(y_hi / y_lo), 0.0, 1.0));
  };
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart roofline\" width=\"" << Num(width) << "\" height=\""
    << Num(height) << "\" viewBox=\"0 0 " << Num(width) << " " << Num(height) << "\" role=\"img\" aria-label=\""
    << EscapeXml(c.title) << "\">\n";
  o << "<text class=\"title\" x=\"4\" y=\"16\">" << EscapeXml(c.title) << "</text>\n";
  o << "<line class=\"axis\" x1=\"" << Num(left) << "\" y1=\"" << Num(top) << "\" x2=\"" << Num(left) << "\" y2=\""
    << Num(top + plot_h) << "\"/><line class=\"axis\" x1=\"" << Num(left) << "\" y1=\"" << Num(top + plot_h)
    << "\" x2=\"" << Num(left + plot_w) << "\" y2=\"" << Num(top + plot_h) << "\"/>\n";
  o << "<text class=\"axis\" x=\"" << Num(left + plot_w) << "\" y=\"" << Num(top + plot_h + 32)
    << "\" text-anchor=\"end\">FP32 flops per DRAM byte (log)</text><text class=\"axis\" x=\"4\" y=\"" << Num(top - 8)
    << "\">GFLOP/s (log)</text>\n";
  if (c.gbps > 0 && c.gflops > 0) {
    const double x0 = std::max(x_lo, y_lo / c.gbps);
    o << "<polyline class=\"reference\" fill=\"none\" points=\"" << Num(fx(x0)) << "," << Num(fy(c.gbps * x0)) << " "
      << Num(fx(ridge)) << "," << Num(fy(c.gflops)) << " " << Num(fx(x_hi)) << "," << Num(fy(c.gflops)) << "\"/>\n";
    o << "<text class=\"reference\" x=\"" << Num(fx(x_hi) - 4) << "\" y=\"" << Num(fy(c.gflops) - 6)
      << "\" text-anchor=\"end\">" << EscapeXml(RateText(c.gflops, "GFLOP/s")) << " measured FP32</text>";
    o << "<text class=\"reference\" x=\"" << Num(fx(x0) + 4) << "\" y=\"" << Num(fy(c.gbps * x0) - 6) << "\">"
      << EscapeXml(GbpsText(c.gbps)) << " measured</text>\n";
  }
  for (size_t i = 0; i < c.marks.size(); ++i) {
    const RooflineMark& m = c.marks[i];
    if (m.intensity <= 0 || m.gflops <= 0) continue;
    o << "<circle class=\"bar\" cx=\"" << Num(fx(m.intensity)) << "\" cy=\"" << Num(fy(m.gflops))
      << "\" r=\"5\"><title>" << EscapeXml(m.label) << "</title></circle><text class=\"value\" x=\""
      << Num(fx(m.intensity) + 7) << "\" y=\"" << Num(fy(m.gflops) + 4) << "\">" << i + 1 << "</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

std::string VerdictClass(Verdict v) {
  if (v == Verdict::kAccepted) return "v-AC";
  if (v == Verdict::kInternalError || v == Verdict::kNotRun) return "v-" + std::string(VerdictShort(v));
  return "v-bad";
}

std::string RateText(double value, const char* unit) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0f %s", value, unit);
  return buf;
}

std::string GbpsText(double gbps) { return RateText(gbps, "GB/s"); }

std::string HtmlPage(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + EscapeXml(title) +
         "</title>\n<style>\n"
         "body{font-family:system-ui,-apple-system,'DejaVu "
         "Sans',sans-serif;margin:24px;color:#1b1f24;max-width:1100px}\n"
         "h1{font-size:22px;margin-bottom:4px} h2{font-size:17px;margin-top:28px} .muted{color:#57606a}\n"
         "table{border-collapse:collapse;font-size:13px;margin:8px 0} th,td{border-bottom:1px solid "
         "#d0d7de;padding:3px 8px;text-align:left}\n"
         "td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}\n"
         ".v-AC{color:#1a7f37;font-weight:600} .v-bad{color:#cf222e;font-weight:600} "
         ".v-IE,.v-NR{color:#9a6700;font-weight:600}\n"
         "svg.chart{display:block;margin:12px 0;font-size:12px} svg .title{font-weight:600;font-size:13px}\n"
         "svg rect.bar{fill:#0969da} svg rect.bar.bad{fill:#cf222e} svg rect.bar.flagged{fill:#bf8700}\n"
         "svg line.axis{stroke:#57606a} svg line.reference{stroke:#cf222e;stroke-dasharray:5 3;stroke-width:1.5}\n"
         "svg text.reference{fill:#cf222e} svg text.axis{fill:#57606a}\n"
         "pre{background:#f6f8fa;padding:8px;overflow-x:auto;font-size:12px}\n"
         "</style>\n</head>\n<body>\n" +
         body + "</body>\n</html>\n";
}

}  // namespace judge

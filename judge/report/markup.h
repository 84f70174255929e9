// SPDX-License-Identifier: MIT
#pragma once
// Shared by the XML, HTML and SVG writers.
#include <string>
#include <vector>

#include "judge/core/verdict.h"

namespace judge {

// Escapes &, <, >, quotes; control characters and the noncharacters U+FFFE and U+FFFF, which
// XML 1.0 forbids, become '?'. `s` is UTF-8 (every report string is, util/utf8.h).
std::string EscapeXml(const std::string& s);

// A horizontal bar chart as inline SVG (no script, no external resources).
struct Bar {
  std::string label;
  double value = 0;
  std::string text;       // printed after the bar ("4280 GB/s")
  std::string css_class;  // "bar ok", "bar bad"...
};

struct BarChart {
  std::string title;
  std::string axis;  // "GB/s"
  std::vector<Bar> bars;
  double reference = 0;  // a dashed vertical line (0: none)
  std::string reference_label;
  bool log_scale = false;
};

std::string RenderBarChart(const BarChart& chart);

// A roofline as inline SVG, both axes logarithmic: FP32 flops per DRAM byte against GFLOP/s, the
// memory roof (bandwidth x intensity) up to the ridge, then the FP32 ceiling; one dot per kernel.
struct RooflineMark {
  std::string label;     // "1 reduceKernel": the dot's number and its kernel
  double intensity = 0;  // flops per byte
  double gflops = 0;
};
struct RooflineChart {
  std::string title;
  double gbps = 0;    // the measured memory ceiling
  double gflops = 0;  // the measured FP32 ceiling
  std::vector<RooflineMark> marks;
};
std::string RenderRoofline(const RooflineChart& chart);

// CSS class of a verdict in the HTML reports; "4280 GB/s".
std::string VerdictClass(Verdict v);
std::string RateText(double value, const char* unit);  // "4325 GFLOP/s"
std::string GbpsText(double gbps);                     // "4325 GB/s"

// The page shell both HTML reports share: inline CSS, a title, the body given.
std::string HtmlPage(const std::string& title, const std::string& body);

}  // namespace judge

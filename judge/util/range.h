// SPDX-License-Identifier: MIT
#pragma once
// The one way a number is held to its range, for problem.json's fields and the command line's
// options alike, so both say a range the same way.
#include <cstdio>
#include <string>

namespace judge {

// "must be 0.001 to 86400 seconds, not 0", or empty when lo <= v <= hi (NaN never is).
inline std::string OutsideRange(double v, double lo, double hi, const std::string& unit = "") {
  if (v >= lo && v <= hi) return "";
  char buf[160];
  std::snprintf(buf, sizeof buf, "must be %.15g to %.15g%s%s, not %.15g", lo, hi, unit.empty() ? "" : " ", unit.c_str(),
                v);
  return buf;
}

}  // namespace judge

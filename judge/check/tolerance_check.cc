// SPDX-License-Identifier: MIT
#include "judge/check/tolerance_check.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace judge {
namespace {

double ElementAt(const std::string& raw, DType dtype, size_t i) {
  if (dtype == DType::kFloat32) {
    float f;
    std::memcpy(&f, raw.data() + 4 * i, 4);
    return double(f);
  }
  int32_t v;
  std::memcpy(&v, raw.data() + 4 * i, 4);
  return double(v);
}

std::string Num(double v) {
  std::ostringstream ss;
  ss.precision(9);
  ss << v;
  return ss.str();
}

}  // namespace

CheckResult CheckOutput(const std::vector<double>& expected, const std::vector<double>* bounds, const std::string& got,
                        DType dtype, const CheckSpec& check) {
  CheckResult r;
  r.exact = check.kind == CheckKind::kExact;
  r.elements = int64_t(expected.size());
  r.worst_index = expected.empty() ? -1 : 0;
  const Tolerance tol = r.exact ? Tolerance{0, 0} : check.tolerance;
  if (!check.reference_bound || r.exact) bounds = nullptr;
  double worst = -1;
  for (size_t i = 0; i < expected.size(); ++i) {
    double g = ElementAt(got, dtype, i), e = expected[i];
    double bound = tol.atol + tol.rtol * std::fabs(e) + (bounds ? (*bounds)[i] : 0.0);
    bool finite = std::isfinite(g);
    double err = finite ? std::fabs(g - e) : std::numeric_limits<double>::infinity();
    double used = finite ? (bound > 0 ? err / bound : (err == 0 ? 0 : std::numeric_limits<double>::infinity()))
                         : std::numeric_limits<double>::infinity();
    if (!finite) ++r.non_finite;
    if (!(used <= 1.0)) ++r.mismatches;
    if (used > worst) {
      worst = used;
      r.worst_index = int64_t(i);
      r.expected = e;
      r.got = g;
      r.abs_error = err;
      r.rel_error = e != 0 ? err / std::fabs(e) : 0;
      r.tolerance = bound;
      r.tolerance_used = used;
    }
  }
  r.passed = r.mismatches == 0;
  return r;
}

std::string CheckResult::Describe(const std::string& buffer_name) const {
  std::ostringstream ss;
  std::string at = buffer_name + "[" + std::to_string(worst_index) + "]";
  if (custom)
    return buffer_name + ": " + (message.empty() ? std::string("rejected by the problem's checker") : message);
  if (exact && std::isfinite(got)) {
    ss << at << " = " << Num(got) << ", expected " << Num(expected);
    if (mismatches > 1) ss << "; " << mismatches << " of " << elements << " elements differ";
    return ss.str();
  }
  if (!std::isfinite(got)) {
    ss << at << " is " << Num(got) << ", expected " << Num(expected)
       << (std::isnan(got) ? " (NaN: the output was never written, or the kernel produced NaN)" : "");
  } else {
    ss << at << " = " << Num(got) << ", expected " << Num(expected) << ": error " << Num(abs_error) << " (relative "
       << Num(rel_error) << ") vs tolerance " << Num(tolerance);
    if (tolerance_used >= 100)
      ss << " (" << Num(std::round(tolerance_used)) << " times the tolerance)";
    else
      ss << " (" << Num(tolerance_used * 100) << "% of it)";
  }
  if (mismatches > 1) ss << "; " << mismatches << " of " << elements << " elements out of tolerance";
  return ss.str();
}

}  // namespace judge

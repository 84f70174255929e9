// SPDX-License-Identifier: MIT
#include "judge/check/tolerance_check.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "judge/util/parallel.h"

namespace judge {
namespace {

// One chunk's share of a check: its counts and its first worst element (the first of equals, as
// a single pass keeps it: chunks are merged in order with a strict comparison).
struct ChunkWorst {
  int64_t mismatches = 0, non_finite = 0, index = -1;
  double used = -1, expected = 0, got = 0, abs_error = 0, bound = 0;
};

template <typename T>
ChunkWorst CheckRange(const double* expected, const double* bounds, const char* got, Tolerance tol, int64_t begin,
                      int64_t end) {
  ChunkWorst w;
  for (int64_t i = begin; i < end; ++i) {
    T raw;
    std::memcpy(&raw, got + sizeof(T) * size_t(i), sizeof(T));
    const double g = double(raw), e = expected[i];
    const double bound = tol.atol + tol.rtol * std::fabs(e) + (bounds ? bounds[i] : 0.0);
    const bool finite = std::isfinite(g);
    const double err = finite ? std::fabs(g - e) : std::numeric_limits<double>::infinity();
    const double used = finite ? (bound > 0 ? err / bound : (err == 0 ? 0 : std::numeric_limits<double>::infinity()))
                               : std::numeric_limits<double>::infinity();
    if (!finite) ++w.non_finite;
    if (!(used <= 1.0)) ++w.mismatches;
    if (used > w.used) w = ChunkWorst{w.mismatches, w.non_finite, i, used, e, g, err, bound};
  }
  return w;
}

std::string Num(double v) {
  std::ostringstream ss;
  ss.precision(9);
  ss << v;
  return ss.str();
}

}  // namespace

CheckResult CheckOutput(const ExpectedValues& expected, const ExpectedValues* bounds, std::string_view got, DType dtype,
                        const CheckSpec& check) {
  CheckResult r;
  r.exact = check.kind == CheckKind::kExact;
  r.elements = int64_t(expected.size());
  r.worst_index = expected.empty() ? -1 : 0;
  const Tolerance tol = r.exact ? Tolerance{0, 0} : check.tolerance;
  if (!check.reference_bound || r.exact) bounds = nullptr;
  const double* bound_values = bounds ? bounds->data() : nullptr;
  // Outputs of hundreds of MB are checked on every core, chunk by chunk, merged in index order.
  std::vector<ChunkWorst> chunks(ParallelChunkCount(r.elements));
  ParallelChunks(r.elements, [&](unsigned c, int64_t begin, int64_t end) {
    chunks[c] = dtype == DType::kFloat32
                    ? CheckRange<float>(expected.data(), bound_values, got.data(), tol, begin, end)
                    : CheckRange<int32_t>(expected.data(), bound_values, got.data(), tol, begin, end);
  });
  double worst = -1;
  for (const ChunkWorst& w : chunks) {
    r.mismatches += w.mismatches;
    r.non_finite += w.non_finite;
    if (w.used > worst) {
      worst = w.used;
      r.worst_index = w.index;
      r.expected = w.expected;
      r.got = w.got;
      r.abs_error = w.abs_error;
      r.rel_error = w.expected != 0 ? w.abs_error / std::fabs(w.expected) : 0;
      r.tolerance = w.bound;
      r.tolerance_used = w.used;
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

// SPDX-License-Identifier: MIT
#pragma once
// Compares a submission's output with the reference, as the problem's check says: element i
// passes when |got - expected| <= atol + rtol * |expected| (+ the reference's bound for i, when the
// check takes one), or when equal for an exact check; NaN and Inf never pass.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "judge/problem/problem.h"
#include "judge/util/uninitialized.h"

namespace judge {

struct CheckResult {
  bool passed = false;
  bool exact = false;   // an exact check: no tolerance to speak of
  bool custom = false;  // decided by the problem's own checker (message says why)
  int64_t elements = 0;
  int64_t mismatches = 0;
  int64_t non_finite = 0;        // NaN or Inf in the output
  int worst_output = 0;          // custom checks: which output buffer
  int64_t worst_index = -1;      // element with the largest share of its tolerance used
  double expected = 0, got = 0;  // at worst_index
  double abs_error = 0;          // at worst_index
  double rel_error = 0;          // abs_error / |expected|, 0 when expected is 0
  double tolerance = 0;          // the allowance at worst_index
  double tolerance_used = 0;     // abs_error / tolerance (> 1 fails); inf for NaN/Inf
  std::string message;           // custom checks: the checker's own line
  std::string checker_error;  // the problem's checker itself failed: the judge's fault (IE), no verdict on the outputs
  std::string Describe(const std::string& buffer_name) const;  // one line for people
};

// A reference's values for one buffer (or its bounds): up to a billion doubles, written whole by
// whoever makes them, so never zeroed first.
using ExpectedValues = UninitializedVector<double>;

// `got` holds `expected.size()` elements of `dtype`, raw; `bounds` (may be null) the reference's
// allowance per element, used when the check says so.
CheckResult CheckOutput(const ExpectedValues& expected, const ExpectedValues* bounds, std::string_view got, DType dtype,
                        const CheckSpec& check);

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// Compares a submission's output with the reference: element i passes when
// |got - expected| <= atol + rtol * |expected|; NaN and Inf never pass.
#include <cstdint>
#include <string>
#include <vector>

#include "judge/problem/problem.h"

namespace judge {

struct CheckResult {
  bool passed = false;
  int64_t elements = 0;
  int64_t mismatches = 0;
  int64_t non_finite = 0;                                      // NaN or Inf in the output
  int64_t worst_index = -1;                                    // element with the largest share of its tolerance used
  double expected = 0, got = 0;                                // at worst_index
  double abs_error = 0;                                        // at worst_index
  double rel_error = 0;                                        // abs_error / |expected|, 0 when expected is 0
  double tolerance = 0;                                        // atol + rtol * |expected| at worst_index
  double tolerance_used = 0;                                   // abs_error / tolerance (> 1 fails); inf for NaN/Inf
  std::string Describe(const std::string& buffer_name) const;  // one line for people
};

// `got` holds `expected.size()` elements of `dtype`, raw.
CheckResult CheckOutput(const std::vector<double>& expected, const std::string& got, DType dtype, const Tolerance& tol);

}  // namespace judge

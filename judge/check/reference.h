// SPDX-License-Identifier: MIT
#pragma once
// The problem's reference (problems/<name>/reference.cc), compiled with the host compiler through
// the compile cache (outside the compile sandbox: it is trusted problem code). A problem author's
// bug must not take the judge down with it, though: each call runs in a child process,
// `judge-reference` (check/reference_job.h says why not a fork of the judge), which reads the
// inputs from and writes the expected values into memory shared with the judge, so a crash or a
// hang is an IE that names the reference, and the judge carries on.
#include <string>
#include <string_view>
#include <vector>

#include "judge/build/compile_cache.h"
#include "judge/check/tolerance_check.h"
#include "judge/problem/problem.h"
#include "judge/testcase/testcase.h"

namespace judge {

// Expected values of each checked buffer (output and inout), in signature order.
struct ExpectedOutputs {
  std::vector<ExpectedValues> values;
  // Parallel to values when the problem's check takes the reference's bound per element; else empty.
  std::vector<ExpectedValues> bounds;
  size_t size() const { return values.size(); }
  const ExpectedValues* BoundsOf(size_t output) const { return output < bounds.size() ? &bounds[output] : nullptr; }
};

// Copies on every core (a matmul's or a large vector's expected values are hundreds of MB).
ExpectedValues CopyValues(const double* from, size_t count);

// What accumulates in the reference: its own precision, or the long double build `judge
// check-problem` measures that precision against (problems/reference_abi.h, judge_real).
enum class ReferencePrecision { kDouble, kLongDouble };

struct ReferenceJobHeader;

// Where judge-reference is: $JUDGE_REFERENCE_PROGRAM, else beside this program, else the build
// tree's; "" when none is there.
std::string ReferenceProgram();

class Reference {
 public:
  // Builds (or finds in the cache) and loads the reference of `problem`.
  static Expected<Reference> Load(const Problem& problem, CompileCache& cache,
                                  ReferencePrecision precision = ReferencePrecision::kDouble);
  Expected<ExpectedOutputs> Compute(const Problem& problem, const Case& c) const;
  // The problem's own checker (check kind "reference"): the outputs of one call (`got`, every
  // checked buffer concatenated, raw) against `expected`, the inputs made again from `c`.
  Expected<CheckResult> Check(const Problem& problem, const Case& c, const ExpectedOutputs& expected,
                              std::string_view got) const;
  const std::string& name() const { return name_; }

 private:
  // Runs judge-reference on the job in the memfd `job_fd` (mapped here at `job`) and waits for it.
  // Errors name the reference and the case.
  Status RunJob(const Case& c, int job_fd, const ReferenceJobHeader* job) const;
  std::string library_;  // the built reference
  std::string program_;  // judge-reference
  bool has_check_ = false;
  std::string name_;  // "problems/reduction/reference.cc", for messages
  double limit_seconds_ = 120;
};

}  // namespace judge

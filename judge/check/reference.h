// SPDX-License-Identifier: MIT
#pragma once
// The problem's reference (problems/<name>/reference.cc), compiled with the host compiler through
// the compile cache (outside the compile sandbox) and called in the judge process: it is trusted
// problem code.
#include <string>
#include <vector>

#include "judge/build/compile_cache.h"
#include "judge/problem/problem.h"
#include "judge/testcase/testcase.h"

namespace judge {

// Expected values of each output buffer, in signature order.
using ExpectedOutputs = std::vector<std::vector<double>>;

class Reference {
 public:
  // Builds (or finds in the cache) and loads the reference of `problem`.
  static Expected<Reference> Load(const Problem& problem, CompileCache& cache);
  Expected<ExpectedOutputs> Compute(const Problem& problem, const Case& c) const;

 private:
  using Fn = int (*)(const void*);
  Fn fn_ = nullptr;
};

}  // namespace judge

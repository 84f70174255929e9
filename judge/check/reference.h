// SPDX-License-Identifier: MIT
#pragma once
// The problem's reference (problems/<name>/reference.cc), compiled with the host compiler through
// the compile cache (outside the compile sandbox: it is trusted problem code). A problem author's
// bug must not take the judge down with it, though: each call runs in a forked child that writes
// the expected values into shared memory, so a crash or a hang is an IE that names the reference,
// and the judge carries on.
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
  std::string name_;  // "problems/reduction/reference.cc", for messages
  double limit_seconds_ = 120;
};

}  // namespace judge

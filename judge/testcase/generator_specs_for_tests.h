// SPDX-License-Identifier: MIT
#pragma once
// Tests only: a generator spec of `dist` whose every field differs from its default, so a test that
// compares two generators exercises all of them.
#include "judge/testcase/testcase.h"

namespace judge::testing {

inline GeneratorSpec EveryFieldSpec(const char* dist, uint64_t seed) {
  GeneratorSpec g;
  g.dist = dist;
  g.low = -1000;
  g.high = 1000;
  g.value = 2.5;
  g.start = -7.5;
  g.step = 0.001;
  g.seed = seed;
  return g;
}

}  // namespace judge::testing

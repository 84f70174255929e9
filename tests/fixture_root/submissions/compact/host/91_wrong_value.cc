// SPDX-License-Identifier: MIT
// problem: compact
// expect: WA
// expect-detail: the kept values differ
// Keeps the right number of values but rounds them: the checker compares the values as a multiset.
#include <cmath>
extern "C" void solve(const float* input, float* output, int* count, float threshold, int N) {
  int n = 0;
  for (int i = 0; i < N; ++i)
    if (input[i] > threshold) output[n++] = std::floor(input[i]) + 0.5f;
  *count = n;
}

// SPDX-License-Identifier: MIT
// problem: reduction
// expect: WA
// expect-detail: did not write
// Sums but forgets to store: the output keeps the judge's NaN poison, which no tolerance passes.
extern "C" void solve(const float* input, float*, int N) {
  volatile double sum = 0;
  for (int i = 0; i < N; ++i) sum = sum + input[i];
}

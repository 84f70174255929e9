// SPDX-License-Identifier: MIT
// problem: compact
// expect: WA
// expect-detail: count is
// Forgets the last kept value: the checker says which count it expected.
extern "C" void solve(const float* input, float* output, int* count, float threshold, int N) {
  int n = 0;
  for (int i = 0; i < N; ++i)
    if (input[i] > threshold) output[n++] = input[i];
  *count = n > 0 ? n - 1 : 0;
}

// SPDX-License-Identifier: MIT
// problem: compact
// Correct, keeping the input's order.
extern "C" void solve(const float* input, float* output, int* count, float threshold, int N) {
  int n = 0;
  for (int i = 0; i < N; ++i)
    if (input[i] > threshold) output[n++] = input[i];
  *count = n;
}

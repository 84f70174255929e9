// SPDX-License-Identifier: MIT
// problem: compact
// Correct in another order (last first): only the problem's own checker can accept it.
extern "C" void solve(const float* input, float* output, int* count, float threshold, int N) {
  int n = 0;
  for (int i = N - 1; i >= 0; --i)
    if (input[i] > threshold) output[n++] = input[i];
  *count = n;
}

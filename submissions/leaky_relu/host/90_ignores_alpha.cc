// SPDX-License-Identifier: MIT
// problem: leaky_relu
// expect: WA
// expect-detail: expected
// The plain ReLU on the host: wrong wherever alpha is not 0.
extern "C" void solve(const float* input, float* output, float, int N) {
  for (int i = 0; i < N; ++i) output[i] = input[i] > 0.0f ? input[i] : 0.0f;
}

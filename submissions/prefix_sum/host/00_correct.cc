// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: AC
// The host double's correct scan: one running sum in double, rounded to float once per element.
// Each output is then within half a float ulp of the exact prefix, far inside the error model.
extern "C" void solve(const float* input, float* output, int N) {
  double running = 0;
  for (int i = 0; i < N; ++i) {
    running += input[i];
    output[i] = float(running);
  }
}

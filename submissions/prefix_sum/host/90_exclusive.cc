// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: WA
// expect-detail: expected
// An exclusive scan (output[i] = sum of the elements BEFORE i, output[0] = 0) where the problem
// asks for an inclusive one: every element is off by input[i], so output[0] = 0 fails at once on
// any input that does not start with 0.
extern "C" void solve(const float* input, float* output, int N) {
  double running = 0;
  for (int i = 0; i < N; ++i) {
    output[i] = float(running);
    running += input[i];
  }
}

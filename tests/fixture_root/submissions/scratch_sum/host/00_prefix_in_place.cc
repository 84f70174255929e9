// SPDX-License-Identifier: MIT
// problem: scratch_sum
// Turns its input into its prefix sums, in place: allowed, and right on every call only because
// the judge restores the input before each (a second pass over its own prefix sums would not be).
extern "C" void solve(int* input, int* output, int N) {
  for (int i = 1; i < N; ++i) input[i] += input[i - 1];
  output[0] = input[N - 1];
}

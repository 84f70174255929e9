// SPDX-License-Identifier: MIT
// problem: vector_add
// expect: WA
// A negative control for the host double: writes zeros to C and computes nothing. Every case has
// nonzero sums, so it must fail.
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  (void)A;
  (void)B;
  for (int i = 0; i < N; ++i) C[i] = 0.0f;
}

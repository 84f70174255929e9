// SPDX-License-Identifier: MIT
// problem: vector_add
// The host double's correct solve: a plain loop on host pointers, float32 adds as a GPU does;
// each sum is within half an ulp of the float64 one, far inside the tolerance.
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  for (int i = 0; i < N; ++i) C[i] = A[i] + B[i];
}

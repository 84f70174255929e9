// SPDX-License-Identifier: MIT
// problem: vector_add
// expect: WA
// A negative control: writes zeros to C and computes nothing. Every case has sums that are not
// zero, so it must fail; it shows that the check cannot be passed by writing a constant.
#include <cuda_runtime.h>

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  (void)A;
  (void)B;
  cudaMemset(C, 0, size_t(N) * sizeof(float));
}

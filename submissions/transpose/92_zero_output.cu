// SPDX-License-Identifier: MIT
// problem: transpose
// expect: WA
// A negative control: writes zeros and moves nothing. Every case holds nonzero values (the
// generated ones are 0, 1, 2, ... or random), so it must fail.
#include <cuda_runtime.h>

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  (void)input;
  cudaMemset(output, 0, size_t(rows) * size_t(cols) * sizeof(float));
}

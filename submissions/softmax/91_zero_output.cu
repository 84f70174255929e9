// SPDX-License-Identifier: MIT
// problem: softmax
// expect: WA
// expect-detail: vs tolerance
// Negative control: the output is written (all zeros) but nothing is computed. Every softmax
// output is positive and each row sums to 1, so this fails everywhere; the tolerance's atol is
// 1e-12, far below the smallest output that matters (1/cols >= 3.8e-6 on average).
#include <cuda_runtime.h>

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    (void)input;
    cudaMemset(output, 0, sizeof(float) * size_t(rows) * size_t(cols));
}

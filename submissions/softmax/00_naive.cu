// SPDX-License-Identifier: MIT
// problem: softmax
// expect: AC
// One thread per row, three passes over it: the row maximum m, the sum s of expf(x - m), then
// expf(x - m) / s. Subtracting m keeps every exponential in (0, 1], so nothing overflows however
// large the inputs, and the largest term is exactly 1, so the sum cannot underflow to 0.
// The running sum is a double: a float one, over a row of 10^5 terms, drops every term below
// half an ulp of the sum and ends up ~2e-4 low, past the tolerance (95_float_running_sum.cu).
// Correct but slow: the 32 threads of a warp walk 32 different rows (each load instruction touches
// 32 cache lines), the sum of a long row is one long sequential chain, and 256 rows leave most of
// the GPU idle.
#include <cuda_runtime.h>

__global__ void softmax_naive(const float* input, float* output, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* x = input + (size_t)r * cols;
    float* y = output + (size_t)r * cols;
    float m = x[0];
    for (int j = 1; j < cols; ++j) m = fmaxf(m, x[j]);
    double s = 0.0;
    for (int j = 0; j < cols; ++j) s += expf(x[j] - m);
    float inv = float(1.0 / s);
    for (int j = 0; j < cols; ++j) y[j] = expf(x[j] - m) * inv;
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    int block = 128;
    int grid = (rows + block - 1) / block;  // up to 7813 blocks for 10^6 rows
    softmax_naive<<<grid, block>>>(input, output, rows, cols);
}

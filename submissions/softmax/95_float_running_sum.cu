// SPDX-License-Identifier: MIT
// problem: softmax
// expect: WA
// expect-detail: vs tolerance
// 00_naive with the row sum in a float: s += expf(x - m), one term after another. Every term
// smaller than half an ulp of the running sum is rounded away, and on a long row with values
// spread over a few units most terms are that small once the sum has grown: on rows of 100000+
// values in [-10, 10] (or normal, stddev 3) the sum ends up 1e-4 to 2e-4 low, and every output
// of the row that much too high, two to three times the allowance (1e-5 + 2^-23 sqrt(cols)).
// Short rows and mild data pass. The fix: a tree of partial sums (01, 02), or a double.
#include <cuda_runtime.h>

__global__ void softmax_float_sum(const float* input, float* output, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* x = input + (size_t)r * cols;
    float* y = output + (size_t)r * cols;
    float m = x[0];
    for (int j = 1; j < cols; ++j) m = fmaxf(m, x[j]);
    float s = 0.0f;
    for (int j = 0; j < cols; ++j) s += expf(x[j] - m);
    for (int j = 0; j < cols; ++j) y[j] = expf(x[j] - m) / s;
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    int block = 128;
    int grid = (rows + block - 1) / block;
    softmax_float_sum<<<grid, block>>>(input, output, rows, cols);
}

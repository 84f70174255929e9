// SPDX-License-Identifier: MIT
// problem: softmax
// expect: WA
// expect-detail: NaN
// 01_block_per_row without the maximum: y = expf(x) / sum expf(x), the textbook formula. Exact
// in real arithmetic and fine for inputs in [-1, 1], but float32 expf overflows to inf above
// x = 88.7 (inf / inf = NaN) and underflows below x = -87.3 (subnormals lose their digits, then
// 0 / 0 = NaN). The testcases with values near +-100 and up to +-1000 catch it.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void softmax_no_max(const float* input, float* output, int cols) {
    __shared__ float red[THREADS];
    const float* x = input + (size_t)blockIdx.x * cols;
    float* y = output + (size_t)blockIdx.x * cols;
    int tid = threadIdx.x;
    float s = 0.0f;
    for (int j = tid; j < cols; j += THREADS) s += expf(x[j]);
    red[tid] = s;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (tid < half) red[tid] += red[tid + half];
        __syncthreads();
    }
    float inv = 1.0f / red[0];
    for (int j = tid; j < cols; j += THREADS) y[j] = expf(x[j]) * inv;
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    softmax_no_max<<<rows, THREADS>>>(input, output, cols);
}

// SPDX-License-Identifier: MIT
// problem: softmax
// expect: WA
// expect-detail: vs tolerance
// A race: 01_block_per_row, but the threads add their partial sums into one __shared__ float
// with a plain `total += partial` instead of a tree or atomicAdd. The 32 lanes of a warp do that
// read-modify-write together: they all read the same old total and only one lane's store lands,
// so the sum loses most of the partials and every output comes out too large. Deterministic in
// practice: wrong on every row with more than one nonzero partial (cols >= 2).
#include <cuda_runtime.h>

#define THREADS 256

__global__ void softmax_racy(const float* input, float* output, int cols) {
    __shared__ float red[THREADS];
    __shared__ float total;
    const float* x = input + (size_t)blockIdx.x * cols;
    float* y = output + (size_t)blockIdx.x * cols;
    int tid = threadIdx.x;

    float m = -3.402823466e38f;
    for (int j = tid; j < cols; j += THREADS) m = fmaxf(m, x[j]);
    red[tid] = m;
    if (tid == 0) total = 0.0f;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (tid < half) red[tid] = fmaxf(red[tid], red[tid + half]);
        __syncthreads();
    }
    m = red[0];

    float s = 0.0f;
    for (int j = tid; j < cols; j += THREADS) s += expf(x[j] - m);
    total += s;  // unsynchronised read-modify-write of one shared word by 256 threads
    __syncthreads();
    float inv = 1.0f / total;
    for (int j = tid; j < cols; j += THREADS) y[j] = expf(x[j] - m) * inv;
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    softmax_racy<<<rows, THREADS>>>(input, output, cols);
}

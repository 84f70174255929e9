// SPDX-License-Identifier: MIT
// Version 05 (two elements per thread) of the article "Reduce 算子的实现与优化" (LeetGPU reduction).
// article: two inputs per thread, added in registers first: the same threads cover twice the data, about half the blocks, and threads that would idle in the early rounds load from global memory instead
// Change vs 04: each thread adds two input elements (BLOCK_SIZE apart) in
// registers before the shared-memory tree, halving the number of blocks.
// Interface: extern "C" void solve(const float* input, float* output, int N); device pointers.

#include <cuda_runtime.h>

#define BLOCK_SIZE 256

__global__ void reduceKernel(const float *input, float *output, int N) {
    int idx = 2 * blockDim.x * blockIdx.x + threadIdx.x;
    int tid = threadIdx.x;
    __shared__ float shared[BLOCK_SIZE];

    double sum = 0.0f;
    if (idx < N) {
        sum += input[idx];
    }
    if (idx + BLOCK_SIZE < N) {
        sum += input[idx + BLOCK_SIZE];
    }

    shared[tid] = sum;
    __syncthreads();

    for (int stride = BLOCK_SIZE / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            shared[tid] += shared[tid + stride];
        }
        __syncthreads();
    }

    if (tid == 0) {
        atomicAdd(output, shared[0]);
    }
}

extern "C" void solve(const float *input, float *output, int N) {
    cudaMemset(output, 0, sizeof(float));
    if (N <= 0) {
        return;
    }

    int ThreadsPerBlock = BLOCK_SIZE;
    int elementsPerBlock = BLOCK_SIZE * 2;
    int BlocksPerGrid = (N + elementsPerBlock - 1) / elementsPerBlock;

    reduceKernel<<<BlocksPerGrid, ThreadsPerBlock>>>(input, output, N);
}

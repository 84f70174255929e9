// SPDX-License-Identifier: MIT
// Version 07 (fully unrolled, templated block size) of the article "Reduce 算子的实现与优化" (LeetGPU reduction).
// article: the block size as a template parameter: the compiler unrolls every round, removing the loop variable, its condition and the branch overhead
// Change vs 06: the block size is a template parameter, so every reduction
// step is a compile-time condition and the whole tree is unrolled (no loop).
// Interface: extern "C" void solve(const float* input, float* output, int N); device pointers.

#include <cuda_runtime.h>

#define BLOCK_SIZE 256

template <unsigned int BLOCK_SIZE_>
__global__ void reduceKernel(const float *input, float *output, int N) {
    int idx = 2 * BLOCK_SIZE_ * blockIdx.x + threadIdx.x;
    int tid = threadIdx.x;
    __shared__ float shared[BLOCK_SIZE_];

    double sum = 0.0f;
    if (idx < N) {
        sum += input[idx];
    }
    if (idx + BLOCK_SIZE_ < N) {
        sum += input[idx + BLOCK_SIZE_];
    }

    shared[tid] = sum;
    __syncthreads();

    if (BLOCK_SIZE_ >= 1024) {
        if (tid < 512)
            shared[tid] += shared[tid + 512];
        __syncthreads();
    }
    if (BLOCK_SIZE_ >= 512) {
        if (tid < 256)
            shared[tid] += shared[tid + 256];
        __syncthreads();
    }
    if (BLOCK_SIZE_ >= 256) {
        if (tid < 128)
            shared[tid] += shared[tid + 128];
        __syncthreads();
    }
    if (BLOCK_SIZE_ >= 128) {
        if (tid < 64)
            shared[tid] += shared[tid + 64];
        __syncthreads();
    }

    if (tid < 32) {
        volatile float *v = shared;
        v[tid] += v[tid + 32];
        __syncwarp();
        v[tid] += v[tid + 16];
        __syncwarp();
        v[tid] += v[tid + 8];
        __syncwarp();
        v[tid] += v[tid + 4];
        __syncwarp();
        v[tid] += v[tid + 2];
        __syncwarp();
        v[tid] += v[tid + 1];
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

    reduceKernel<BLOCK_SIZE>
        <<<BlocksPerGrid, ThreadsPerBlock>>>(input, output, N);
}

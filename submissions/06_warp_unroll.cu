// SPDX-License-Identifier: MIT
// Version 06 (unrolled last warp) of the article "Reduce 算子的实现与优化" (LeetGPU reduction).
// article: once 32 threads remain, the work is in one warp: unrolling it drops the block-wide __syncthreads() of those rounds (__syncwarp() keeps the order under Volta's independent thread scheduling)
// Change vs 05: the loop stops at stride 64 and the last warp (32 threads) is
// unrolled through volatile shared memory with __syncwarp() between steps,
// needed under Volta+ independent thread scheduling (no implicit lockstep).
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

    for (int stride = BLOCK_SIZE / 2; stride > 32; stride >>= 1) {
        if (tid < stride) {
            shared[tid] += shared[tid + stride];
        }
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

    reduceKernel<<<BlocksPerGrid, ThreadsPerBlock>>>(input, output, N);
}

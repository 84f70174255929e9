// SPDX-License-Identifier: MIT
// Version 04 (reversed (sequential) stride) of the article "Reduce 算子的实现与优化" (LeetGPU reduction).
// article: halving the stride from BLOCK_SIZE/2 keeps the active threads contiguous and the shared accesses free of bank conflicts
// Change vs 03: stride starts at BLOCK_SIZE/2 and halves; threads tid < stride
// access shared[tid] and shared[tid+stride], so active threads are contiguous
// and there are no bank conflicts. The last warp still idles progressively.
// Interface: extern "C" void solve(const float* input, float* output, int N); device pointers.

#include <cuda_runtime.h>

#define BLOCK_SIZE 256

__global__ void reduceKernel(const float *input, float *output, int N) {
    int idx = blockDim.x * blockIdx.x + threadIdx.x;
    int tid = threadIdx.x;
    __shared__ float shared[BLOCK_SIZE];

    shared[tid] = idx < N ? input[idx] : 0.0f;
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
    int BlocksPerGrid = (N + ThreadsPerBlock - 1) / ThreadsPerBlock;

    reduceKernel<<<BlocksPerGrid, ThreadsPerBlock>>>(input, output, N);
}

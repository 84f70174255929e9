// SPDX-License-Identifier: MIT
// Version 02 (naive shared-memory tree) of the article "Reduce 算子的实现与优化" (LeetGPU reduction).
// article: a shared-memory tree per block cuts the atomics to one per block; as the stride grows, tid % (2*stride) leaves each warp sparser (warp divergence: 50%, then 25% of the lanes work), and the modulo and interleaved shared accesses cost extra
// Change vs 01: per-block shared-memory tree reduction, stride 1,2,4,... with
// the tid % (2*stride) test; only one atomicAdd per block instead of per thread.
// Caveat: the modulo test causes heavy warp divergence as stride grows.
// Interface: extern "C" void solve(const float* input, float* output, int N); device pointers.

#include <cuda_runtime.h>

#define BLOCK_SIZE 256

__global__ void reduceKernel(const float *input, float *output, int N) {
    int idx = blockDim.x * blockIdx.x + threadIdx.x;
    int tid = threadIdx.x;
    __shared__ float shared[BLOCK_SIZE];

    shared[tid] = idx < N ? input[idx] : 0.0f;
    __syncthreads();

    for (int stride = 1; stride < BLOCK_SIZE; stride <<= 1) {
        if (tid % (2 * stride) == 0) {
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

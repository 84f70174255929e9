// SPDX-License-Identifier: MIT
// Version 03 (interleaved addressing) of the article "Reduce 算子的实现与优化" (LeetGPU reduction).
// article: contiguous working threads (index = 2*stride*tid) reduce the divergence of 02, but the growing stride maps threads of a warp to the same bank: 2-way, 4-way, up to 16-way bank conflicts
// Change vs 02: active threads compute index = 2*stride*tid, so the working
// threads are contiguous and warp divergence is reduced.
// Caveat: the strided shared-memory accesses cause bank conflicts.
// Interface: extern "C" void solve(const float* input, float* output, int N); device pointers.

#include <cuda_runtime.h>

#define BLOCK_SIZE 256

__global__ void reduceKernel(const float *input, float *output, int N) {
    int tid = threadIdx.x;
    int idx = blockDim.x * blockIdx.x + tid;
    __shared__ float shared[BLOCK_SIZE];

    shared[tid] = idx < N ? input[idx] : 0.0f;
    __syncthreads();

    for (int stride = 1; stride < BLOCK_SIZE; stride <<= 1) {
        int index = 2 * stride * tid;
        if (index < BLOCK_SIZE) {
            shared[index] += shared[index + stride];
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

    int BlocksPerGrid = (N + BLOCK_SIZE - 1) / BLOCK_SIZE;
    reduceKernel<<<BlocksPerGrid, BLOCK_SIZE>>>(input, output, N);
}

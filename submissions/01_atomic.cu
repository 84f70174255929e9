// SPDX-License-Identifier: MIT
// expect: MV
// expect-detail: reads past the end of its input
// Version 01 (one atomicAdd per thread) of the article "Reduce 算子的实现与优化" (LeetGPU reduction).
// article: reads in parallel, but every thread does an atomicAdd into the result: heavy contention; marked a precision error
// Change vs 00: one thread per element, each doing a float atomicAdd on output.
// Caveat: massive same-address atomic contention; float accumulation loses
// precision on large N (article marks it a precision error); no bounds check,
// so threads past N in the last block read beyond the input.
// Interface: extern "C" void solve(const float* input, float* output, int N); device pointers.

#include <cuda_runtime.h>

__global__ void reduceKernel(const float *input, float *output, int N) {
    int idx = blockDim.x * blockIdx.x + threadIdx.x;
    float sum = 0.0f;
    sum += input[idx];
    atomicAdd(output, sum);
}

extern "C" void solve(const float *input, float *output, int N) {
    cudaMemset(output, 0, sizeof(float));
    if (N <= 0) {
        return;
    }

    int ThreadsPerBlock = 256;
    int BlocksPerGrid = (N + ThreadsPerBlock - 1) / ThreadsPerBlock;

    reduceKernel<<<BlocksPerGrid, ThreadsPerBlock>>>(input, output, N);
}

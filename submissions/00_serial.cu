// SPDX-License-Identifier: MIT
// Version 00 (serial baseline) of the article "Reduce 算子的实现与优化" (LeetGPU reduction).
// article: one GPU thread sums everything; under nsys the launch returns in 60 us and cudaDeviceSynchronize then waits about 105 ms (RTX 4060 Laptop) (seed 000; its figures are from an RTX 4060 Laptop)
// Baseline: a single GPU thread (<<<1, 1>>>) sums all N elements in a double.
// Correct and precise, but uses no parallelism at all, so it is extremely slow.
// Interface: extern "C" void solve(const float* input, float* output, int N); device pointers.

#include <cuda_runtime.h>

__global__ void reduceKernel(const float *input, float *output, int N) {
    double sum = 0.0;
    for (int i = 0; i < N; ++i) {
        sum += input[i];
    }

    output[0] = static_cast<float>(sum);
}

extern "C" void solve(const float *input, float *output, int N) {
    cudaMemset(output, 0, sizeof(float));
    if (N <= 0) {
        return;
    }

    reduceKernel<<<1, 1>>>(input, output, N);
}

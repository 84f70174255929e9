// SPDX-License-Identifier: MIT
// problem: block_sums
// expect: WA
// expect-detail: expected
// A race, made to lose every time: each of the 256 threads adds its input to one shared counter
// with a plain `total += x` (load, add, store) instead of atomicAdd or a tree. The 32 threads of a
// warp load the same old value together and each stores old + its own x; one store wins, so a
// warp contributes one input instead of 32, and the block's sum keeps at most 8 of its 256 inputs.
// WA on every group that is not all zeros. Fix: atomicAdd(&total, x), or the tree of 03_reduce3.cu.
// (This is the racy must-fail sample rather than a missing __syncthreads(): dropping a barrier
// from the tree is a real race too, but whether it shows depends on how the warps happen to be
// scheduled, so the verdict could change from run to run; this one cannot come out right.)
#include <cuda_runtime.h>

#define BLOCK_SIZE 256

__global__ void racy_sum(int* d_input, int* d_output) {
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    int x = d_input[blockIdx.x * BLOCK_SIZE + threadIdx.x];
    *(volatile int*)&total += x;  // BUG: not atomic; 32 lanes read the same old value
    __syncthreads();
    if (threadIdx.x == 0) d_output[blockIdx.x] = total;
}

extern "C" void solve(int* input, int* output, int N) {
    racy_sum<<<N / BLOCK_SIZE, BLOCK_SIZE>>>(input, output);
}

// SPDX-License-Identifier: MIT
// problem: block_sums
// expect: WA
// expect-detail: expected
// 05_reduce5.cu with an off-by-one grid: (N - 1) / 256 blocks, half of the round-up idiom
// (N + 255) / 256, which for N a multiple of 256 is one block short. The last group's sum is never
// written and output[N / 256 - 1] keeps the judge's poison (-1 as an int). With N = 256 there is
// no block at all (and a launch of 0 blocks would be an error, so it is skipped). WA on every case.
#include <cuda_runtime.h>

#define BLOCK_SIZE 256

__global__ void reduce5(int* d_input, int* d_output) {
    int* start = d_input + blockIdx.x * blockDim.x * 2;
    __shared__ int sdata[BLOCK_SIZE / 2];
    sdata[threadIdx.x] = start[threadIdx.x] + start[threadIdx.x + blockDim.x];
    __syncthreads();
    for (int i = BLOCK_SIZE / 4; i >= 1; i /= 2) {
        if (threadIdx.x < i) {
            sdata[threadIdx.x] += sdata[threadIdx.x + i];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        d_output[blockIdx.x] = sdata[0];
    }
}

extern "C" void solve(int* input, int* output, int N) {
    int block_num = (N - 1) / BLOCK_SIZE;  // BUG: one short; (N + BLOCK_SIZE - 1) / BLOCK_SIZE = N / 256 here
    if (block_num > 0) reduce5<<<block_num, BLOCK_SIZE / 2>>>(input, output);
}

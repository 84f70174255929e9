// SPDX-License-Identifier: MIT
// problem: block_sums
// expect: AC
// article: idx = 2 i t: no warp divergence, but 2-way and worse bank conflicts: 235 us (RTX 4090), 260 us (H100)
// reduce2 of the same article as 00_reduce0.cu: no warp divergence. Change vs reduce1: in round
// i thread t works on position idx = 2 i t (if idx < 256), so the threads that add are always the
// first ones, 0, 1, 2, ...: whole warps are either busy or idle and no warp takes both branches.
// What it teaches: a warp executes one instruction for its 32 threads, and a branch that splits a
// warp runs both sides one after the other. The strided idx now makes threads of one warp hit the
// same shared-memory bank (2-way and worse conflicts), which reduce3 fixes.
// Measured in the article (N = 32M): 235 us on an RTX 4090 (ncu), 260 us on an H100 (nsys).
// Measured on an H200 (throwaway harness: L2 flushed, CUDA events, median of 20 calls): 200.8 us at
// N = 32M, 1.55 ms at N = 2^28.
// Group size: one sum per 256 inputs, the article's BLOCK_SIZE; produced as is.
// Adapted to the judge's interface: N from the argument, grid N / 256, the article's host code
// dropped, device pointers given. The kernel is unchanged.
#include <cuda_runtime.h>

#define BLOCK_SIZE 256

// shared memory
// no warp divergence
__global__ void reduce2(int* d_input, int* d_output) {
    int* start = d_input + blockIdx.x * blockDim.x;
    __shared__ int sdata[BLOCK_SIZE];
    sdata[threadIdx.x] = start[threadIdx.x];
    __syncthreads();
    for (int i = 1; i < blockDim.x; i *= 2) {
        int idx = threadIdx.x * i * 2;
        if (idx < BLOCK_SIZE) {
            sdata[idx] += sdata[idx + i];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        d_output[blockIdx.x] = sdata[0];
    }
}

extern "C" void solve(int* input, int* output, int N) {
    int block_num = N / BLOCK_SIZE;
    dim3 Grid(block_num);
    dim3 Block(BLOCK_SIZE);
    reduce2<<<Grid, Block>>>(input, output);
}

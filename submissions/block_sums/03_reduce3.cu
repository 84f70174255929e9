// SPDX-License-Identifier: MIT
// problem: block_sums
// expect: AC
// article: sequential addressing: no bank conflicts: 221 us (RTX 4090), 199 us (H100)
// reduce3 of the same article as 00_reduce0.cu: no bank conflicts. Change vs reduce2: the stride
// runs downwards (128, 64, ..., 1) and thread t adds sdata[t + i] into sdata[t] (sequential
// addressing): the threads of a warp touch 32 consecutive words, one per bank, and the busy
// threads are still the first ones (no divergence). What it teaches: shared memory is 32 banks;
// threads of a warp that read different words of one bank wait for each other.
// Measured in the article (N = 32M): 221 us on an RTX 4090 (ncu), 199 us on an H100 (nsys).
// Measured on an H200 (throwaway harness: L2 flushed, CUDA events, median of 20 calls): 148.9 us at
// N = 32M, 1.13 ms at N = 2^28.
// Group size: one sum per 256 inputs, the article's BLOCK_SIZE; produced as is.
// Adapted to the judge's interface: N from the argument, grid N / 256, the article's host code
// (and its commented-out debug printing) dropped, device pointers given. The kernel is unchanged.
#include <cuda_runtime.h>

#define BLOCK_SIZE 256

// shared memory
// no warp divergence
// no bank conflicts
__global__ void reduce3(int* d_input, int* d_output) {
    int* start = d_input + blockIdx.x * blockDim.x;
    __shared__ int sdata[BLOCK_SIZE];
    sdata[threadIdx.x] = start[threadIdx.x];
    __syncthreads();
    for (int i = BLOCK_SIZE / 2; i >= 1; i /= 2) {
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
    int block_num = N / BLOCK_SIZE;
    dim3 Grid(block_num);
    dim3 Block(BLOCK_SIZE);
    reduce3<<<Grid, Block>>>(input, output);
}

// SPDX-License-Identifier: MIT
// problem: block_sums
// expect: AC
// article: the whole tree unrolled, no loop counter or branch left: 145 us (RTX 4090), 87.1 us (H100)
// reduce7 of the same article as 00_reduce0.cu: everything unrolled. Change vs reduce6: the loop
// is written out as explicit steps with a barrier each, so no loop counter or branch is left;
// warpReduce finishes as before. What it teaches: with a block size known at compile time the
// tree is straight-line code.
// Measured in the article (N = 32M): 145 us on an RTX 4090 (ncu), 87.1 us on an H100 (nsys).
// Measured on an H200 (throwaway harness: L2 flushed, CUDA events, median of 20 calls): 83.5 us at
// N = 32M, 0.635 ms at N = 2^28.
// Group size, ADAPTED: the article launches N / 512 blocks of 256 threads (one sum per 512
// inputs); here blocks of 128 threads load two elements each, N / 256 blocks, one sum per 256, as
// in 04_reduce4.cu. The article's first unrolled step (tid < 128: sdata[tid] += sdata[tid + 128])
// then has nothing to add, since the loads already leave 128 partial sums, and is dropped; the
// step for 64 and warpReduce are the article's.
// __syncwarp(), ADDED in warpReduce as in 06_reduce6.cu: Volta and later GPUs do not run the
// lanes of a warp in lockstep, so each step reads, waits for the warp, writes, and waits again.
// Adapted to the judge's interface: N from the argument, grid from N, the article's host code
// dropped, device pointers given.
#include <cuda_runtime.h>

#define BLOCK_SIZE 128  // the article's 256; see the header

__device__ void warpReduce(volatile int* a, int tid) {
    int v = a[tid];
    v += a[tid + 32]; __syncwarp(); a[tid] = v; __syncwarp();
    v += a[tid + 16]; __syncwarp(); a[tid] = v; __syncwarp();
    v += a[tid + 8];  __syncwarp(); a[tid] = v; __syncwarp();
    v += a[tid + 4];  __syncwarp(); a[tid] = v; __syncwarp();
    v += a[tid + 2];  __syncwarp(); a[tid] = v; __syncwarp();
    v += a[tid + 1];  __syncwarp(); a[tid] = v;
}

__global__ void reduce7(int* d_input, int* d_output) {
    int* start = d_input + blockIdx.x * blockDim.x * 2;
    volatile __shared__ int sdata[BLOCK_SIZE];
    sdata[threadIdx.x] = start[threadIdx.x] + start[threadIdx.x + blockDim.x];
    __syncthreads();
    // (the article's step for threadIdx.x < 128 is dropped: see the header)
    if (threadIdx.x < 64) {
        sdata[threadIdx.x] += sdata[threadIdx.x + 64];
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        warpReduce(sdata, threadIdx.x);
    }
    if (threadIdx.x == 0) {
        d_output[blockIdx.x] = sdata[0];
    }
}

extern "C" void solve(int* input, int* output, int N) {
    int block_num = N / (BLOCK_SIZE * 2);
    dim3 Grid(block_num);
    dim3 Block(BLOCK_SIZE);
    reduce7<<<Grid, Block>>>(input, output);
}

// SPDX-License-Identifier: MIT
// problem: block_sums
// expect: AC
// article: two inputs per thread, half the blocks: no thread idle at the start: 146 us (RTX 4090), 109 us (H100)
// reduce4 of the same article as 00_reduce0.cu: more work per thread, half the blocks. Change vs
// reduce3: each thread adds two inputs, start[t] and start[t + blockDim.x], while copying to
// shared memory, so the first round of the tree happens in registers and no thread is idle at the
// start. What it teaches: after reduce3 half the threads do nothing from the first round on; give
// each thread more of the work instead of more threads.
// Measured in the article (N = 32M): 146 us on an RTX 4090 (ncu), 109 us on an H100 (nsys).
// Measured on an H200 (throwaway harness: L2 flushed, CUDA events, median of 20 calls): 83.9 us at
// N = 32M, 0.636 ms at N = 2^28.
// Group size, ADAPTED: the article launches N / 512 blocks of 256 threads and so writes one sum
// per 512 inputs; the judged quantity is one sum per 256. Here BLOCK_SIZE, the article's threads
// per block, is 128: blocks of 128 threads that load two elements each, N / (2 * 128) = N / 256
// blocks, one sum per 256 inputs. The kernel body is the article's, unchanged (it is written in
// blockDim.x and BLOCK_SIZE). Its launch shape now equals reduce5's (05_reduce5.cu), which keeps
// the group and halves the block; the article measured the two equal too (146 us vs 146 us on the
// RTX 4090).
// Adapted to the judge's interface: N from the argument, grid from N, the article's host code
// dropped, device pointers given.
#include <cuda_runtime.h>

#define BLOCK_SIZE 128  // the article's 256; see the header

// more work per thread, fewer blocks
__global__ void reduce4(int* d_input, int* d_output) {
    int* start = d_input + blockIdx.x * blockDim.x * 2;
    __shared__ int sdata[BLOCK_SIZE];
    sdata[threadIdx.x] = start[threadIdx.x] + start[threadIdx.x + blockDim.x];
    __syncthreads();
    // no warp divergence
    for (int i = BLOCK_SIZE / 2; i >= 1; i >>= 1) {
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
    int block_num = N / (BLOCK_SIZE * 2);
    dim3 Grid(block_num);
    dim3 Block(BLOCK_SIZE);
    reduce4<<<Grid, Block>>>(input, output);
}

// SPDX-License-Identifier: MIT
// problem: block_sums
// expect: AC
// article: the naive tree in global memory: every round reads and writes global memory, and tid % (2i) leaves most threads of a warp idle; 377 us on an RTX 4090 (ncu), 479 us on an H100 (nsys) at N = 32M
// reduce0 of the Chinese article on int32 block reductions, reduce0..reduce7 (it credits the video
// series "【CUDA】Reduce规约求和"): the naive tree, in place in global memory. Each block
// of 256 threads owns 256 inputs; in round i (1, 2, 4, ..., 128) the threads whose index is a
// multiple of 2i add the element i to their right, and thread 0 ends with the block's sum. It
// writes into its input, which this problem allows (the input is declared writable: the judge
// restores it before every call). What it teaches: the tree and the barrier between rounds; what
// it costs: every round reads and writes global memory, and `tid % (2i)` leaves most threads of a
// warp idle (divergence).
// Measured in the article (N = 32M): 377 us on an RTX 4090 (ncu Duration), 479 us on an H100
// (nsys kernel time).
// Measured on an H200 (throwaway harness: L2 flushed, CUDA events, median of 20 calls): 356.6 us at
// N = 32M, 2.82 ms at N = 2^28.
// Group size: one sum per 256 inputs, the article's BLOCK_SIZE; this version produces it as is.
// Adapted to the judge's interface: N comes from the argument and the grid is N / 256 (N is a
// multiple of 256); the article's host code (allocation, rand() % 1000, CPU check) is the judge's
// job and is dropped; input and output are the judge's device pointers. The kernel is unchanged.
#include <cuda_runtime.h>

#define BLOCK_SIZE 256

__global__ void reduce(int* d_input, int* d_output) {
    // the start of this block's 256 inputs
    int* start = d_input + blockIdx.x * blockDim.x;
    for (int i = 1; i < blockDim.x; i *= 2) {
        if (threadIdx.x % (i * 2) == 0) {
            start[threadIdx.x] += start[threadIdx.x + i];
        }
        // every round must finish before the next one starts
        __syncthreads();
    }
    // thread 0 holds the block's sum: copy it to the result array
    if (threadIdx.x == 0) {
        d_output[blockIdx.x] = start[0];
    }
}

extern "C" void solve(int* input, int* output, int N) {
    int block_num = N / BLOCK_SIZE;
    dim3 Grid(block_num);
    dim3 Block(BLOCK_SIZE);
    reduce<<<Grid, Block>>>(input, output);
}

// SPDX-License-Identifier: MIT
// problem: block_sums
// expect: AC
// article: the tree in shared memory; a small gain, since the kernel makes few memory accesses per element: 338 us (RTX 4090), 429 us (H100)
// reduce1 of the same article as 00_reduce0.cu: shared memory. Change vs reduce0: each block
// first copies its 256 inputs into __shared__ sdata (one barrier after the copy), and the same
// tree runs there, so the rounds no longer read and write global memory, and the input is left
// untouched. What it teaches: shared memory as a cache the program manages (locality); the tree
// is still divergent (tid % (2i)), which is what the next versions fix.
// Measured in the article (N = 32M): 338 us on an RTX 4090 (ncu), 429 us on an H100 (nsys); the
// gain is small because this kernel makes few memory accesses per element.
// Measured on an H200 (throwaway harness: L2 flushed, CUDA events, median of 20 calls): 318.7 us at
// N = 32M, 2.51 ms at N = 2^28.
// Group size: one sum per 256 inputs, the article's BLOCK_SIZE; produced as is.
// Adapted to the judge's interface: N from the argument, grid N / 256, the article's host code
// dropped, device pointers given. The kernel is unchanged.
#include <cuda_runtime.h>

#define BLOCK_SIZE 256

// shared memory
__global__ void reduce1(int* d_input, int* d_output) {
    // this block's inputs in global memory, copied to shared memory
    int* start = d_input + blockIdx.x * blockDim.x;
    __shared__ int sdata[BLOCK_SIZE];
    sdata[threadIdx.x] = start[threadIdx.x];
    // the copy needs a barrier too
    __syncthreads();
    for (int i = 1; i < blockDim.x; i *= 2) {
        if (threadIdx.x % (i * 2) == 0) {
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
    reduce1<<<Grid, Block>>>(input, output);
}

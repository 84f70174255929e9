// SPDX-License-Identifier: MIT
// problem: matmul
// expect: AC
// Shared-memory tiling: a 32x32 block of threads computes a 32x32 tile of C. For each step of 32
// along K it stages a 32x32 tile of A and one of B in shared memory (one element per thread), and
// every thread then reads its row of the A tile and its column of the B tile from there: each
// global element is loaded once per tile instead of once per use (32x less traffic). Tiles that
// stick out of the matrices are padded with zeros on load and masked on store, so every M, N, K
// works. Still one output per thread: shared-memory bandwidth now limits it.
#include <cuda_runtime.h>

#define TILE 32

__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    // A warp is one row of threads (fixed ty, tx = 0..31): As[ty][k] is a broadcast, Bs[k][tx]
    // 32 consecutive words, so neither read has bank conflicts.
    for (int k0 = 0; k0 < K; k0 += TILE) {
        int ka = k0 + tx, kb = k0 + ty;
        As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);  // at most 256 x 256
    matmul_tiled<<<grid, block>>>(A, B, C, M, N, K);
}

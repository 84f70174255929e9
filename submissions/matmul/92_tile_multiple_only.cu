// SPDX-License-Identifier: MIT
// problem: matmul
// expect: MV
// expect-detail: reads past the end
// 01_smem_tiled with the K-edge checks left out: rows and columns are checked, but the loop over
// K loads whole 32-wide tiles, so it is right only when K is a multiple of 32 (as on the published
// performance sizes). Otherwise the last tile reads A[row][K..] (the next row of A, or past A's end
// for the last row) and B[K..][col], which lies past the end of B. The judge fills the memory
// after each input with NaN, so every output becomes NaN; its rerun with zeros there makes the
// extra B rows contribute 0 * x and passes: a read past the end, MV (on every case with K % 32 != 0
// and N <= 527, where the over-read 31 rows of B stay inside the judge's 64 KiB guard; cases with
// K % 32 == 0 pass). The fix is 01's zero padding: (kb < K && col < N) ? B[...] : 0.
#include <cuda_runtime.h>

#define TILE 32

__global__ void matmul_tiled_k_unchecked(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        As[ty][tx] = row < M ? A[row * K + k0 + tx] : 0.0f;    // k0 + tx may be >= K
        Bs[ty][tx] = col < N ? B[(k0 + ty) * N + col] : 0.0f;  // k0 + ty may be >= K
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled_k_unchecked<<<grid, block>>>(A, B, C, M, N, K);
}

// SPDX-License-Identifier: MIT
// problem: matmul
// expect: WA
// expect-detail: vs tolerance
// A race: one warp per element of C, its 32 lanes each summing a slice of K (k = lane, lane + 32,
// ...), then every lane does `C[i] += partial` with a plain load-add-store. The 32 lanes execute
// that read-modify-write together: all read the same 0, and only one lane's store survives, so C
// holds one slice's sum instead of all 32: wrong whenever two lanes hold nonzero partials, i.e.
// on every case with K >= 2 (at K = 1 it depends on which lane's store lands last). The fix:
// reduce the partials with __shfl_down_sync and let lane 0 store (or atomicAdd).
#include <cuda_runtime.h>

__global__ void matmul_racy(const float* A, const float* B, float* C, int M, int N, int K) {
    long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp >= (long long)M * N) return;
    int row = int(warp / N), col = int(warp % N);
    float partial = 0.0f;
    for (int k = lane; k < K; k += 32) partial += A[row * K + k] * B[k * N + col];
    C[row * N + col] += partial;  // 32 unsynchronised read-modify-writes of one address
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    cudaMemset(C, 0, sizeof(float) * size_t(M) * size_t(N));
    long long threads = (long long)M * N * 32;
    int block = 256;
    long long grid = (threads + block - 1) / block;  // up to 2^26 * 32 / 256 = 8.4M blocks: fine in x
    matmul_racy<<<(unsigned)grid, block>>>(A, B, C, M, N, K);
}

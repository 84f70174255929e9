// SPDX-License-Identifier: MIT
// problem: matmul
// expect: AC
// One thread per element of C: thread (row, col) walks row `row` of A and column `col` of B.
// Consecutive threads of a warp take consecutive columns, so the loads of B and the stores of C
// are coalesced while every thread of the warp reads the same A element (a broadcast). Each
// element of A and B is fetched from memory (or L2) once per use: 2*K loads for 2*K flops, which
// is why this version runs at a few percent of the FP32 ceiling.
#include <cuda_runtime.h>

__global__ void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    dim3 block(32, 8);
    dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);  // at most 256 x 1024
    matmul_naive<<<grid, block>>>(A, B, C, M, N, K);
}

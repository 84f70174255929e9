// SPDX-License-Identifier: MIT
// problem: matmul
// expect: WA
// expect-detail: vs tolerance
// The naming mix-up this problem's statement warns about: B is read as if it were stored N x K
// (B[col * K + k], i.e. the kernel computes A B^T). Every index stays inside the K * N elements,
// so nothing is caught as a memory violation; the products are simply wrong, except in the
// degenerate shapes N = 1 or K = 1 where both layouts are the same vector.
#include <cuda_runtime.h>

__global__ void matmul_bt(const float* A, const float* B, float* C, int M, int N, int K) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[col * K + k];  // should be B[k * N + col]
    C[row * N + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    dim3 block(32, 8);
    dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
    matmul_bt<<<grid, block>>>(A, B, C, M, N, K);
}

// SPDX-License-Identifier: MIT
// problem: matmul
// expect: WA
// expect-detail: vs tolerance
// cuBLAS with CUBLAS_TF32_TENSOR_OP_MATH: the tensor cores read each input with a 10-bit mantissa
// (TF32, unit roundoff 2^-11 instead of 2^-24), so every product carries a relative error near
// 2^-11. On random inputs in [-1, 1] that is about 2^-11 * sqrt(K) / 3 per element against an
// allowance of 2^-24 * sqrt(K) * K / 4: the worst element of the 2048^3 performance case is about
// 15x over it (measured on an H200), of a K = 64 case about 200 times. Faster, and wrong for
// this problem, which asks for FP32 accuracy.
#include <cublas_v2.h>
#include <cuda_runtime.h>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    static cublasHandle_t handle = nullptr;
    if (!handle) {
        if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return;
        cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH);
    }
    const float alpha = 1.0f, beta = 0.0f;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N);
}

// SPDX-License-Identifier: MIT
// problem: matmul
// expect: AC
// The library yardstick: cublasSgemm in its default FP32 math (no tensor cores, so no TF32
// rounding of the inputs). cuBLAS is column-major; a row-major M x N matrix C is the column-major
// N x M matrix C^T, and C^T = B^T A^T, so we ask cuBLAS for the column-major product of "B"
// (N x K, leading dimension N) and "A" (K x M, leading dimension K), no transposes. The handle is
// created on the first call and kept (creating one per call costs milliseconds and leaks).
// Not a graded solution (the statement forbids libraries): it is here to time kernels against.
#include <cublas_v2.h>
#include <cuda_runtime.h>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    static cublasHandle_t handle = nullptr;
    if (!handle) {
        if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return;
        cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);  // FP32 FMAs; TF32 only where asked for
    }
    const float alpha = 1.0f, beta = 0.0f;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N);
}

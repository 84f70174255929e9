// SPDX-License-Identifier: MIT
// problem: matmul
// expect: WA
// expect-detail: vs tolerance
// Negative control: writes zeros to all of C (so nothing is left unwritten) and computes nothing.
// It must fail: with inputs uniform in [-1, 1] the outputs are of order sqrt(K) / 3, far above
// the tolerance, on every case except the all-zero one.
#include <cuda_runtime.h>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    (void)A;
    (void)B;
    (void)K;
    cudaMemset(C, 0, sizeof(float) * size_t(M) * size_t(N));
}

// SPDX-License-Identifier: MIT
// problem: matmul
// expect: WA
// expect-detail: vs tolerance
// Host double of ../93_zero_output.cu: every element of C set to 0, nothing computed.
#include <cstddef>

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    (void)A;
    (void)B;
    (void)K;
    for (size_t i = 0; i < size_t(M) * size_t(N); ++i) C[i] = 0.0f;
}

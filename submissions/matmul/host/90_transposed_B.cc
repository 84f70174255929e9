// SPDX-License-Identifier: MIT
// problem: matmul
// expect: WA
// expect-detail: vs tolerance
// Host double of ../91_transposed_B.cu: B read as an N x K matrix (B[j * K + k]), i.e. A B^T.
// In bounds, so no memory violation; wrong wherever N > 1 and K > 1. Threaded over rows (the
// performance sizes must stay well inside the 10 s call limit, or the verdict would be TLE).
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

static void Rows(const float* A, const float* B, float* C, int N, int K, int r0, int r1) {
    for (int i = r0; i < r1; ++i)
        for (int j = 0; j < N; ++j) {
            const float* a = A + size_t(i) * K;
            const float* b = B + size_t(j) * K;  // should be column j: B[k * N + j]
            double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            int k = 0;
            for (; k + 8 <= K; k += 8)
                for (int q = 0; q < 8; ++q) s[q] += double(a[k + q]) * b[k + q];
            for (; k < K; ++k) s[0] += double(a[k]) * b[k];
            C[size_t(i) * N + j] = float(((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7])));
        }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    int threads = std::min(int(std::max(1u, std::thread::hardware_concurrency())), M);
    const int per = (M + threads - 1) / threads;
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        if (t * per < M) pool.emplace_back(Rows, A, B, C, N, K, t * per, std::min(M, (t + 1) * per));
    Rows(A, B, C, N, K, 0, std::min(M, per));
    for (auto& t : pool) t.join();
}

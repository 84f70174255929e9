// SPDX-License-Identifier: MIT
// problem: matmul
// expect: AC
// Host double (plain C++ on host pointers, for CI without a GPU): C = A B accumulated in double,
// rounded to float once. Rows are split over std::thread workers; each worker takes 8 rows at a
// time and streams B once per 8 rows (an i-k-j loop: contiguous reads of B and of the 8 double
// accumulator rows), so the performance sizes take seconds rather than minutes.
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

static void Rows(const float* A, const float* B, float* C, int N, int K, int r0, int r1) {
    const int kRows = 8;
    std::vector<double> acc(size_t(kRows) * N);
    for (int i0 = r0; i0 < r1; i0 += kRows) {
        const int rows = std::min(kRows, r1 - i0);
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int k = 0; k < K; ++k) {
            const float* b = B + size_t(k) * N;
            for (int r = 0; r < rows; ++r) {
                const double a = A[size_t(i0 + r) * K + k];
                double* s = &acc[size_t(r) * N];
                int j = 0;
                for (; j + 8 <= N; j += 8)  // fixed-length chunks: what g++ -O2 vectorizes
                    for (int q = 0; q < 8; ++q) s[j + q] += a * b[j + q];
                for (; j < N; ++j) s[j] += a * b[j];
            }
        }
        for (int r = 0; r < rows; ++r)
            for (int j = 0; j < N; ++j) C[size_t(i0 + r) * N + j] = float(acc[size_t(r) * N + j]);
    }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    int threads = int(std::max(1u, std::thread::hardware_concurrency()));
    threads = std::min(threads, (M + 7) / 8);
    const int per = (M + threads - 1) / threads;
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        if (t * per < M) pool.emplace_back(Rows, A, B, C, N, K, t * per, std::min(M, (t + 1) * per));
    Rows(A, B, C, N, K, 0, std::min(M, per));
    for (auto& t : pool) t.join();
}

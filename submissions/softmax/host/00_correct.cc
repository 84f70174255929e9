// SPDX-License-Identifier: MIT
// problem: softmax
// expect: AC
// Host double (plain C++ on host pointers, for CI without a GPU): per row, the maximum, the
// exponentials of the shifted values summed in double, then one division per element.
#include <cmath>
#include <cstddef>

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    for (int r = 0; r < rows; ++r) {
        const float* x = input + size_t(r) * cols;
        float* y = output + size_t(r) * cols;
        float m = x[0];
        for (int j = 1; j < cols; ++j) m = x[j] > m ? x[j] : m;
        double s = 0;
        for (int j = 0; j < cols; ++j) s += std::exp(double(x[j]) - m);
        for (int j = 0; j < cols; ++j) y[j] = float(std::exp(double(x[j]) - m) / s);
    }
}

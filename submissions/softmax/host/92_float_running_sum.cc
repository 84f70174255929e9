// SPDX-License-Identifier: MIT
// problem: softmax
// expect: WA
// expect-detail: vs tolerance
// Host double of ../95_float_running_sum.cu: the row sum accumulated in a float, one term after
// another. On long rows (100000+ values spread over [-10, 10]) the terms below half an ulp of the
// running sum are lost and the sum ends 1e-4 to 2e-4 low: past the tolerance. Everything else is
// as in 00_correct.cc.
#include <cmath>
#include <cstddef>

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    for (int r = 0; r < rows; ++r) {
        const float* x = input + size_t(r) * cols;
        float* y = output + size_t(r) * cols;
        float m = x[0];
        for (int j = 1; j < cols; ++j) m = x[j] > m ? x[j] : m;
        float s = 0.0f;
        for (int j = 0; j < cols; ++j) s += std::exp(x[j] - m);  // float expf, float sum
        for (int j = 0; j < cols; ++j) y[j] = float(std::exp(double(x[j]) - m) / s);
    }
}

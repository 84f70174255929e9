// SPDX-License-Identifier: MIT
// problem: softmax
// expect: WA
// expect-detail: NaN
// Host double of ../90_no_max_subtraction.cu, in float32 as a GPU kernel would be: expf(x) / sum
// expf(x) overflows to inf / inf = NaN once x > 88.7 and underflows (subnormals, then 0 / 0)
// below x = -87.3. Right on mild inputs, wrong on the large-magnitude cases.
#include <cmath>
#include <cstddef>

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    for (int r = 0; r < rows; ++r) {
        const float* x = input + size_t(r) * cols;
        float* y = output + size_t(r) * cols;
        float s = 0.0f;
        for (int j = 0; j < cols; ++j) s += std::exp(x[j]);  // float overload: expf
        for (int j = 0; j < cols; ++j) y[j] = std::exp(x[j]) / s;
    }
}

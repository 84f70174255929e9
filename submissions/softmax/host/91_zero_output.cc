// SPDX-License-Identifier: MIT
// problem: softmax
// expect: WA
// expect-detail: vs tolerance
// Host double of ../91_zero_output.cu: the output is all zeros, nothing is computed.
#include <cstddef>

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    (void)input;
    for (size_t i = 0; i < size_t(rows) * size_t(cols); ++i) output[i] = 0.0f;
}

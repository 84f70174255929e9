// SPDX-License-Identifier: MIT
// problem: softmax
// expect: WA
// expect-detail: never written
// One warp per row, each lane taking cols / 32 elements (lane, lane + 32, ...): right when cols
// is a multiple of 32, as on both performance sizes. Otherwise the last cols % 32 elements of
// every row are neither counted in the sum nor written, and rows shorter than 32 get nothing at
// all: the judge's NaN poison stays there. Nothing is read or written out of bounds, so it is a
// wrong answer (WA), not a memory violation.
#include <cuda_runtime.h>

__global__ void softmax_warp_mult32(const float* input, float* output, int rows, int cols) {
    int row = blockIdx.x * 8 + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float* x = input + (size_t)row * cols;
    float* y = output + (size_t)row * cols;
    int per_lane = cols / 32;  // drops the remainder
    float m = -3.402823466e38f;
    for (int t = 0; t < per_lane; ++t) m = fmaxf(m, x[lane + 32 * t]);
    for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    float s = 0.0f;
    for (int t = 0; t < per_lane; ++t) s += expf(x[lane + 32 * t] - m);
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    for (int t = 0; t < per_lane; ++t) y[lane + 32 * t] = expf(x[lane + 32 * t] - m) / s;
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    softmax_warp_mult32<<<(rows + 7) / 8, 256>>>(input, output, rows, cols);
}

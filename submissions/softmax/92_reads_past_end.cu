// SPDX-License-Identifier: MIT
// problem: softmax
// expect: MV
// expect-detail: reads past the end
// 01_block_per_row whose max loop runs over cols rounded up to the block (256): "a few extra
// values cannot hurt a maximum, softmax does not change when every x shifts by the same amount".
// For every row but the last they are the next row's first values (harmless on mild data, fatal
// when the next row is 100s larger: all of this row's exps underflow, 0/0); for the last row they
// lie past the end of the input. The judge puts NaN there: the max becomes NaN (this max keeps
// NaN, as `a > b ? a : b` does) and so does the whole last row; rerun with zeros there, the
// answer is right: a read past the end, MV, on every case with cols % 256 != 0 and mild values.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void softmax_overread(const float* input, float* output, int cols) {
    __shared__ float red[THREADS];
    const float* x = input + (size_t)blockIdx.x * cols;
    float* y = output + (size_t)blockIdx.x * cols;
    int tid = threadIdx.x;
    int padded = (cols + THREADS - 1) / THREADS * THREADS;

    float m = -3.402823466e38f;
    for (int j = tid; j < padded; j += THREADS) {  // should stop at cols
        float v = x[j];
        m = m > v ? m : v;  // NaN in, NaN out
    }
    red[tid] = m;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (tid < half) red[tid] = red[tid] > red[tid + half] ? red[tid] : red[tid + half];
        __syncthreads();
    }
    m = red[0];
    __syncthreads();

    float s = 0.0f;
    for (int j = tid; j < cols; j += THREADS) s += expf(x[j] - m);
    red[tid] = s;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (tid < half) red[tid] += red[tid + half];
        __syncthreads();
    }
    float inv = 1.0f / red[0];
    for (int j = tid; j < cols; j += THREADS) y[j] = expf(x[j] - m) * inv;
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    softmax_overread<<<rows, THREADS>>>(input, output, cols);
}

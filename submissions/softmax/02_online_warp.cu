// SPDX-License-Identifier: MIT
// problem: softmax
// expect: AC
// One pass for the statistics, one for the output. Each thread keeps an online pair (m, s): the
// running maximum and the sum of expf(x - m) so far, rescaled by expf(m_old - m_new) whenever the
// maximum grows, so the max and the sum come from a single read of the row. Pairs merge with
// m = max(m1, m2), s = s1 expf(m1 - m) + s2 expf(m2 - m): across a warp with __shfl_xor_sync
// (every lane ends with the same bits), across warps through shared memory. Rows of up to 1024
// columns get one warp each (8 rows per block); longer rows one block of 256 or 1024 threads.
// Loads and stores are float4s, with a few scalar ones at each end of a row that does not start
// or end on a 16-byte boundary (cols % 4 != 0). The second pass re-reads the row, mostly from
// L2, so DRAM sees about one read and one write of the matrix, except for rows too long to stay
// in L2 while the block works on them (the 256 x 262144 case reads them twice).
#include <cuda_runtime.h>
#include <stdint.h>

#define NEG_BIG -3.402823466e38f  // -FLT_MAX: below every input, and -FLT_MAX - x stays finite

__device__ __forceinline__ void online_add(float& m, float& s, float v) {
    if (v > m) {
        s = s * expf(m - v) + 1.0f;
        m = v;
    } else {
        s += expf(v - m);
    }
}

__device__ __forceinline__ void online_add4(float& m, float& s, float4 v) {
    float mv = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
    if (mv > m) {
        s *= expf(m - mv);
        m = mv;
    }
    s += (expf(v.x - m) + expf(v.y - m)) + (expf(v.z - m) + expf(v.w - m));
}

__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2) {
    float mn = fmaxf(m, m2);
    s = s * expf(m - mn) + s2 * expf(m2 - mn);
    m = mn;
}

__device__ __forceinline__ void warp_merge(float& m, float& s) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        float m2 = __shfl_xor_sync(0xffffffffu, m, off);
        float s2 = __shfl_xor_sync(0xffffffffu, s, off);
        merge(m, s, m2, s2);
    }
}

// Rows start wherever row * cols puts them, so a row is split into a head of 0-3 floats up to
// the first 16-byte boundary, a body of float4s and a tail of 0-3 floats. (input and output have
// the same misalignment: solve() checks it.)
__device__ __forceinline__ void split_row(const float* x, int cols, int& head, int& n4) {
    const int mis = int((reinterpret_cast<uintptr_t>(x) >> 2) & 3);  // floats past a 16-byte boundary
    head = min(mis ? 4 - mis : 0, cols);
    n4 = (cols - head) >> 2;
}

// The (m, s) of elements first, first + stride, ... of row x (the body counted in float4s).
__device__ __forceinline__ void row_stats(const float* x, int cols, bool vec, int first, int stride, float& m,
                                          float& s) {
    if (vec) {
        int head, n4;
        split_row(x, cols, head, n4);
        const float4* x4 = reinterpret_cast<const float4*>(x + head);
#pragma unroll 4
        for (int i = first; i < n4; i += stride) online_add4(m, s, __ldg(x4 + i));
        for (int j = first; j < head; j += stride) online_add(m, s, __ldg(x + j));
        for (int j = head + 4 * n4 + first; j < cols; j += stride) online_add(m, s, __ldg(x + j));
    } else {
#pragma unroll 4
        for (int j = first; j < cols; j += stride) online_add(m, s, __ldg(x + j));
    }
}

// y = expf(x - m) * inv for the same elements.
__device__ __forceinline__ void row_write(const float* x, float* y, int cols, bool vec, int first, int stride, float m,
                                          float inv) {
    if (vec) {
        int head, n4;
        split_row(x, cols, head, n4);
        const float4* x4 = reinterpret_cast<const float4*>(x + head);
        float4* y4 = reinterpret_cast<float4*>(y + head);
#pragma unroll 4
        for (int i = first; i < n4; i += stride) {
            float4 v = __ldg(x4 + i);
            y4[i] = make_float4(expf(v.x - m) * inv, expf(v.y - m) * inv, expf(v.z - m) * inv, expf(v.w - m) * inv);
        }
        for (int j = first; j < head; j += stride) y[j] = expf(__ldg(x + j) - m) * inv;
        for (int j = head + 4 * n4 + first; j < cols; j += stride) y[j] = expf(__ldg(x + j) - m) * inv;
    } else {
#pragma unroll 4
        for (int j = first; j < cols; j += stride) y[j] = expf(__ldg(x + j) - m) * inv;
    }
}

// cols <= 1024: one warp per row, 8 rows per block of 256 threads.
__global__ void softmax_warp_per_row(const float* __restrict__ input, float* __restrict__ output, int rows, int cols,
                                     bool vec) {
    const int row = blockIdx.x * 8 + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;  // the whole warp leaves together: the shuffles below see all 32 lanes
    const float* x = input + (size_t)row * cols;
    float* y = output + (size_t)row * cols;
    float m = NEG_BIG, s = 0.0f;
    row_stats(x, cols, vec, lane, 32, m, s);
    warp_merge(m, s);
    row_write(x, y, cols, vec, lane, 32, m, 1.0f / s);
}

// cols > 1024: one block of THREADS per row.
template <int THREADS>
__global__ void __launch_bounds__(THREADS) softmax_block_per_row(const float* __restrict__ input,
                                                                 float* __restrict__ output, int cols, bool vec) {
    __shared__ float wm[THREADS / 32], ws[THREADS / 32];
    __shared__ float row_m, row_inv;
    const float* x = input + (size_t)blockIdx.x * cols;
    float* y = output + (size_t)blockIdx.x * cols;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    float m = NEG_BIG, s = 0.0f;
    row_stats(x, cols, vec, tid, THREADS, m, s);
    warp_merge(m, s);
    if (lane == 0) {
        wm[warp] = m;
        ws[warp] = s;
    }
    __syncthreads();
    if (warp == 0) {
        m = lane < THREADS / 32 ? wm[lane] : NEG_BIG;
        s = lane < THREADS / 32 ? ws[lane] : 0.0f;
        warp_merge(m, s);
        if (lane == 0) {
            row_m = m;
            row_inv = 1.0f / s;
        }
    }
    __syncthreads();
    row_write(x, y, cols, vec, tid, THREADS, row_m, row_inv);
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    // float4 access needs input and output rows equally placed against 16-byte boundaries (true for
    // cudaMalloc'ed buffers); otherwise everything goes one float at a time.
    const uintptr_t in = reinterpret_cast<uintptr_t>(input), out = reinterpret_cast<uintptr_t>(output);
    const bool vec = (in & 3) == 0 && (in & 15) == (out & 15);
    if (cols <= 1024) {
        softmax_warp_per_row<<<(rows + 7) / 8, 256>>>(input, output, rows, cols, vec);
    } else if (cols <= 16384) {
        softmax_block_per_row<256><<<rows, 256>>>(input, output, cols, vec);
    } else {
        softmax_block_per_row<1024><<<rows, 1024>>>(input, output, cols, vec);
    }
}

// SPDX-License-Identifier: MIT
// problem: transpose
// expect: RE
// expect-detail: a CUDA error pending
// Right only when rows and cols are both multiples of 32, as the performance sizes are: the padded
// tile kernel of 02 with no bounds checks and a grid of cols / 32 x rows / 32 tiles (the classic
// tutorial code that assumes "the matrix is a multiple of the tile"). With 33 x 33 the last
// partial tile row and column are never written (the judge's NaN stays: WA); with fewer than 32
// rows or columns the grid has a zero dimension and the launch itself fails ("invalid argument"
// from CUDA 13's runtime on an H200), which the judge finds pending when solve() returns: RE, the
// verdict that outranks the WA of the other shapes. Every access stays inside the buffers. The
// fix: round the grid up and check i < rows, j < cols on both sides, as 02 does.
#include <cuda_runtime.h>

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void TransposeNoBounds(const float* input, float* output, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int j = blockIdx.x * kTile + tx, i0 = blockIdx.y * kTile + ty;
#pragma unroll
  for (int k = 0; k < kTile; k += kRowsPerPass) tile[ty + k][tx] = input[(i0 + k) * cols + j];
  __syncthreads();
  const int oi = blockIdx.y * kTile + tx, oj0 = blockIdx.x * kTile + ty;
#pragma unroll
  for (int k = 0; k < kTile; k += kRowsPerPass) output[(oj0 + k) * rows + oi] = tile[tx][ty + k];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 block(kTile, kRowsPerPass);
  const dim3 grid(cols / kTile, rows / kTile);  // the bug: rounded down, and no bounds checks
  TransposeNoBounds<<<grid, block>>>(input, output, rows, cols);
}

// SPDX-License-Identifier: MIT
// problem: transpose
// The fast one: the tile of 01 with one float of padding per row (32 x 33), so a column of the
// tile spans all 32 banks and reads without conflicts; and blocks of 32 x 8 threads, each thread
// moving 4 elements (rows ty, ty + 8, ty + 16, ty + 24 of the tile): a quarter of the threads per
// tile, each with 4 independent loads in flight. Reads and writes are both whole
// 128-byte lines; bounds are checked on both sides for the partial tiles at the edges. H200
// (2026-12-01): 150 us at 8192 x 8192, 3.59 TB/s, 79% of the read ceiling (32 x 4 threads doing 8
// rows each measured 146 us, 32 x 16 doing 2 rows 184 us).
#include <cuda_runtime.h>

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;  // blockDim.y

__global__ void __launch_bounds__(kTile * kRowsPerPass)
    TransposePadded(const float* __restrict__ input, float* __restrict__ output, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int j = blockIdx.x * kTile + tx;  // input column
  const int i0 = blockIdx.y * kTile + ty;  // first input row of this thread
#pragma unroll
  for (int k = 0; k < kTile; k += kRowsPerPass)
    if (i0 + k < rows && j < cols) tile[ty + k][tx] = input[(i0 + k) * cols + j];
  __syncthreads();
  const int oi = blockIdx.y * kTile + tx;   // output column = input row
  const int oj0 = blockIdx.x * kTile + ty;  // first output row of this thread = input column
#pragma unroll
  for (int k = 0; k < kTile; k += kRowsPerPass)
    if (oj0 + k < cols && oi < rows) output[(oj0 + k) * rows + oi] = tile[tx][ty + k];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 block(kTile, kRowsPerPass);
  const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);  // grid.y <= 1024
  TransposePadded<<<grid, block>>>(input, output, rows, cols);
}

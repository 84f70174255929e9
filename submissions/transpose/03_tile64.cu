// SPDX-License-Identifier: MIT
// problem: transpose
// expect: AC
// 02 with tiles of 64 x 64: every row segment a warp reads and every output segment it writes is
// 256 bytes (two 128-byte lines side by side) instead of one line, so each tile touches half as
// many DRAM pages per byte on both sides; and each thread has 16 loads in flight instead of 4.
// A warp reads a tile row as two coalesced halves (lanes take columns l and l + 32) and writes an
// output row the same way; with one float of padding (64 x 65), both the row-wise stores into the
// tile and the column-wise loads out of it fall in 32 distinct banks. 256 threads per tile, 16.25
// KiB of shared memory. H200 (2026-12-02, docs/results/h200-2026-12-02-catalog-3.md): 134.3 us at
// 4096 x 16384, 3998 GB/s, 86.3% of the read ceiling (02: 80.6-83.0%); 134.9 us at 8192 x 8192.
#include <cuda_runtime.h>

namespace {

constexpr int kTile = 64;
constexpr int kWarps = 8;                     // a block of 8 warps, 256 threads
constexpr int kRowsPerWarp = kTile / kWarps;  // tile rows (and output rows) per warp

__global__ void __launch_bounds__(32 * kWarps)
    Transpose64(const float* __restrict__ input, float* __restrict__ output, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;  // the tile's corner in the input
#pragma unroll
  for (int k = 0; k < kRowsPerWarp; ++k) {
    const int r = warp * kRowsPerWarp + k, i = row0 + r;
#pragma unroll
    for (int h = 0; h < kTile; h += 32) {
      const int j = col0 + h + lane;
      if (i < rows && j < cols) tile[r][h + lane] = input[size_t(i) * cols + j];
    }
  }
  __syncthreads();
  // Output row c of the tile is input column col0 + c; its elements are the tile's rows.
#pragma unroll
  for (int k = 0; k < kRowsPerWarp; ++k) {
    const int c = warp * kRowsPerWarp + k, oi = col0 + c;
#pragma unroll
    for (int h = 0; h < kTile; h += 32) {
      const int oj = row0 + h + lane;
      if (oi < cols && oj < rows) output[size_t(oi) * rows + oj] = tile[h + lane][c];
    }
  }
}

}  // namespace

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);  // grid.y <= 512
  Transpose64<<<grid, 32 * kWarps>>>(input, output, rows, cols);
}

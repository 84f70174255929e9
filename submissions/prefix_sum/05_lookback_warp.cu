// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: AC
// Change vs 04: the same decoupled look-back scan (tickets, one status word per 128-byte line,
// tags with a per-call epoch, an L2 prefetch kPrefetchTiles tickets ahead), with the look-back
// taken off the tile's critical path.
// (1) A dedicated look-back warp. Each block is 1 + kDataWarps warps. Warp 0 starts the look-back
// as soon as the block has its ticket, while the data warps' loads are still in flight; in 04 the
// look-back began only after the loads, the in-tile scan and a barrier.
// (2) The aggregate before the scan. The data warps load straight into registers (no shared-memory
// staging), reduce, and publish the tile's aggregate after one barrier among themselves; the
// in-warp scan runs afterwards, while the look-back may still be going on.
// (3) When the look-back is done before the aggregate (kEarlyInclusive), the tile publishes its
// inclusive prefix at once instead of its aggregate, so successors stop there.
// Layout: data warp w owns 32 * kItems consecutive floats of the tile; lane l holds float4 number
// k * 32 + l of that segment (coalesced); chunk k is scanned across the warp and the chunks are
// chained by their totals, so no thread adds a long serial run.
// Deadlock freedom: as in 02/04, a block takes its ticket after it is resident, so every tile a
// look-back waits for belongs to a running block; a tile's aggregate depends only on its own loads
// (the data warps publish it without waiting for warp 0), so every predecessor's word eventually
// reads at least "aggregate" and every look-back ends, at tile 0 at the latest.
// Measured on an H200 (2026-12-04, docs/results/h200-2026-12-04-scan/: L2 flushed by a 512 MB
// memset before each call, CUDA events, variants interleaved round by round). Run 3 (median of 101
// calls, 28 other entries): 141.2 us at 2^26 (3803 GB/s, 83.8% of the 4540 GB/s ceiling; min
// 139.3 us) and 44.0 us at 2^24 (67.1%), against 04's 148.4 us and 45.1 us; a device-to-device
// cudaMemcpy took 128.9 us. Run 2 (41 calls): 141.7 us (min 139.6). Still short of the 85% bar
// (<= 139 us at 2^26).
// The driver's carveout is kept on purpose: with almost no shared memory it leaves a large L1,
// most likely needed because the loads in flight take L1 lines. Forcing the carveout to 100% cost
// this exact code 2.1 us at 2^26 (143.3 us) and 1.0 us at 2^24; an explicit 0 changed nothing
// (141.1 us). A harness copy of this kernel lost 4.7 us to the 100% carveout (148.1 -> 143.4 us;
// loads with L1::no_allocate won back 2 us of it) and stays 2 us behind this file for reasons not
// found.
// Kept at 8 data warps x 32 floats each, 4 blocks per SM, prefetch 128 tiles: in run 3 no other
// shape beat it at 2^26 (data warps x floats / blocks per SM: 6 x 32 / 5: 141.3 us; 8 x 48 / 3:
// 141.6; 4 x 48 / 6: 141.9; prefetch 64: 140.9; 8 x 24 / 5: 143.4; 8 x 16 / 7: 145.2; 4 x 32 / 8:
// 144.7; 12 data warps: 144.5-146.0; 8 x 24 / 6 spills: 189.7), though 6 x 32 / 5 and 4 x 48 / 6
// were 2-3% faster at 2^24 (42.6 and 42.8 us; one run). The registers allow 31-37K floats per SM
// in flight whatever the shape, so a shape change cannot raise that; what else limits is not known
// (no profile yet).
// What did not help in run 2: two or four predecessors per lane (kLookback = 2: 148.4 us); copying
// the tile into shared memory with cp.async.bulk on an mbarrier instead of registers (145.2-167.5
// us over runs 1-3); prefetch 192 or 256 tickets ahead; evict-first stores; no back-off; status
// words 256 bytes apart.
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstdint>

namespace {

constexpr int kDataWarps = 8;
constexpr int kItems = 32;                 // floats per data thread (a multiple of 4)
constexpr int kPrefetchTiles = 128;        // how far ahead (in tickets) a block asks L2 for a tile
constexpr int kStatusStride = 16;          // one status word per 128-byte line
constexpr int kLookback = 1;               // predecessors each lane reads per look-back step
constexpr int kBackoffNs = 100;            // __nanosleep between polls of a word that is not ready
constexpr bool kEarlyInclusive = true;
constexpr int kThreads = (kDataWarps + 1) * 32;
constexpr int kSeg = 32 * kItems;          // floats per data warp
constexpr int kTile = kDataWarps * kSeg;
constexpr int kChunks = kItems / 4;
constexpr unsigned kAggregate = 1, kInclusive = 2;  // the state in a status word's tag
constexpr unsigned kFull = 0xffffffffu;

__device__ unsigned int g_next_tile = 0;

__device__ __forceinline__ void Publish(unsigned long long* status, int tile, unsigned tag, float value) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[size_t(tile) * kStatusStride]);
  word.store((static_cast<unsigned long long>(tag) << 32) | __float_as_uint(value), cuda::memory_order_relaxed);
}

__device__ __forceinline__ unsigned long long LoadStatus(unsigned long long* status, int tile) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[size_t(tile) * kStatusStride]);
  return word.load(cuda::memory_order_relaxed);
}

// The sum of the tiles before `tile` (one warp; every lane gets it). Each step reads a window of
// 32 * kLookback predecessors, waits until each has published something in this call, and adds
// the values from the nearest tile back to the nearest inclusive prefix.
__device__ float LookBack(unsigned long long* status, int tile, unsigned first_tag, int lane) {
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
      while (unsigned(w[j] >> 32) < first_tag) {  // older calls' tags are smaller
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

__global__ void __launch_bounds__(kThreads, 4)
    ScanTiles(const float* __restrict__ in, float* __restrict__ out, int n, unsigned long long* status, unsigned epoch,
              int num_tiles, bool vector_ok) {
  __shared__ float warp_totals[kDataWarps];
  __shared__ float s_exclusive;
  __shared__ int s_tile;
  __shared__ int s_ready;  // the look-back warp has written s_exclusive
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

  if (tid == 0) {
    const unsigned t = atomicAdd(&g_next_tile, 1u);
    if (t == unsigned(num_tiles) - 1) atomicExch(&g_next_tile, 0u);  // the last ticket: reset for the next call
    s_tile = int(t);
    s_ready = 0;
    // The prefetch stays inside the input (whole 16-byte units, never past N) and needs 16-byte
    // alignment, as the vector path does.
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
  const int tile = s_tile;
  const int base = tile * kTile;  // < 2^28 + kTile
  const int valid = min(kTile, n - base);
  const bool full = valid == kTile && vector_ok;
  const unsigned first_tag = epoch * 4 + kAggregate;

  if (warp == 0) {
    const float exclusive = tile > 0 ? LookBack(status, tile, first_tag, lane) : 0.0f;
    if (lane == 0) {
      s_exclusive = exclusive;
      if (kEarlyInclusive) {
        __threadfence_block();  // s_exclusive before s_ready
        *static_cast<volatile int*>(&s_ready) = 1;
      }
    }
    __syncthreads();  // (B): hands the prefix to the data warps
    return;
  }

  const int dw = warp - 1;
  const int seg = dw * kSeg;
  float4 v[kChunks];
  if (full) {
    const float4* in4 = reinterpret_cast<const float4*>(in + base + seg);
#pragma unroll
    for (int k = 0; k < kChunks; ++k) v[k] = in4[k * 32 + lane];
  } else {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const int e = seg + (k * 32 + lane) * 4;
      v[k].x = e < valid ? in[base + e] : 0.0f;
      v[k].y = e + 1 < valid ? in[base + e + 1] : 0.0f;
      v[k].z = e + 2 < valid ? in[base + e + 2] : 0.0f;
      v[k].w = e + 3 < valid ? in[base + e + 3] : 0.0f;
    }
  }

  // The tile total first: successors wait for it, not for this tile's scan.
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < kChunks; ++k) sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) sum += __shfl_xor_sync(kFull, sum, d);
  if (lane == 0) warp_totals[dw] = sum;
  asm volatile("bar.sync 1, %0;\n" ::"r"(kDataWarps * 32) : "memory");  // the data warps only
  float before_warp = 0.0f, tile_total = 0.0f;
#pragma unroll
  for (int w = 0; w < kDataWarps; ++w) {
    const float t = warp_totals[w];
    if (w < dw) before_warp += t;
    tile_total += t;
  }
  // One thread publishes both of the tile's words, so program order keeps them in order.
  bool inclusive_done = tile == 0;
  if (tid == 32) {
    if (kEarlyInclusive && tile > 0 && *static_cast<volatile int*>(&s_ready)) {
      __threadfence_block();  // s_ready before s_exclusive
      Publish(status, tile, epoch * 4 + kInclusive, *static_cast<volatile float*>(&s_exclusive) + tile_total);
      inclusive_done = true;
    } else {
      Publish(status, tile, epoch * 4 + (tile == 0 ? kInclusive : kAggregate), tile_total);
    }
  }

  // In-warp scan of the segment, chunk by chunk, while the look-back may still run.
  float carry = 0.0f;
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    v[k].y += v[k].x;
    v[k].z += v[k].y;
    v[k].w += v[k].z;
    float inc = v[k].w;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const float y = __shfl_up_sync(kFull, inc, d);
      if (lane >= d) inc += y;
    }
    float ex = __shfl_up_sync(kFull, inc, 1);
    if (lane == 0) ex = 0.0f;
    const float before = carry + ex;
    v[k].x += before;
    v[k].y += before;
    v[k].z += before;
    v[k].w += before;
    carry += __shfl_sync(kFull, inc, 31);
  }

  __syncthreads();  // (B)
  const float exclusive = s_exclusive;
  if (tid == 32 && !inclusive_done) Publish(status, tile, epoch * 4 + kInclusive, exclusive + tile_total);
  const float prefix = exclusive + before_warp;
  if (full) {
    float4* out4 = reinterpret_cast<float4*>(out + base + seg);
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      out4[k * 32 + lane] = make_float4(prefix + v[k].x, prefix + v[k].y, prefix + v[k].z, prefix + v[k].w);
    }
  } else {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const int e = seg + (k * 32 + lane) * 4;
      if (e < valid) out[base + e] = prefix + v[k].x;
      if (e + 1 < valid) out[base + e + 1] = prefix + v[k].y;
      if (e + 2 < valid) out[base + e + 2] = prefix + v[k].z;
      if (e + 3 < valid) out[base + e + 3] = prefix + v[k].w;
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
    if (status != nullptr && cudaFree(status) != cudaSuccess) return;
    status = nullptr;
    capacity = 0;
    if (cudaMalloc(&status, size_t(num_tiles) * kStatusStride * sizeof(*status)) != cudaSuccess) {
      status = nullptr;
      return;
    }
    // Tag 0: older than any call.
    if (cudaMemset(status, 0, size_t(num_tiles) * kStatusStride * sizeof(*status)) != cudaSuccess) return;
    capacity = num_tiles;
  }
  ++epoch;
  const bool vector_ok = (reinterpret_cast<uintptr_t>(input) | reinterpret_cast<uintptr_t>(output)) % 16 == 0;
  ScanTiles<<<num_tiles, kThreads>>>(input, output, N, status, epoch, num_tiles, vector_ok);
  if (cudaGetLastError() != cudaSuccess) return;
}

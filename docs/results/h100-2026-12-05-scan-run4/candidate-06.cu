// SPDX-License-Identifier: MIT
// Run 4 candidate (pending: has NOT run on a GPU). This is submissions/prefix_sum/05_lookback_warp.cu
// (its code below the header, unchanged) with compile-time switches; build.sh compiles it once per
// variant with -D options. With every switch at its default the kernel is 05's: build.sh checks that
// the SASS of `C6_base` equals the sample's, instruction for instruction.
//
// Switches (default = 05):
//   C6_TICKET  1: a block takes its tile by ticket (atomicAdd on g_next_tile) after it is resident,
//                 then a __syncthreads hands the tile to all warps (05).
//              0: tile = blockIdx.x, as CUB's single-pass scan does ("blocks are launched in
//                 increasing order"). No atomic and no barrier before the loads: the data warps
//                 issue their loads as their first instructions. Deadlock freedom then rests on the
//                 hardware dispatching a 1-D grid's blocks in index order (CUB's assumption), not on
//                 the ticket (05's argument).
//   C6_POLL1   0: every look-back lane polls its own predecessor's word until it is ready (05).
//              1: before the first window, lane 0 alone waits for tile - 1 (the youngest
//                 predecessor, as a rule the last one ready); then the window is read as in 05.
//                 Up to 32 times fewer polls to L2 while the look-back waits, at the cost of one more
//                 round trip once tile - 1 is ready.
//   C6_ST      0: plain float4 stores (05). 1: st.global.cs (evict-first streaming stores).
//              2: each data warp writes its 4 KB segment to shared memory and lane 0 stores it with
//                 one cp.async.bulk (the copy engine), waiting only until the copy has read shared
//                 memory (32 KB of static shared memory per block).
//   C6_LD      0: plain float4 loads (05). 1: ld.global.nc.L1::no_allocate.
//              2: ld.global.nc.L1::no_allocate with an L2 evict_first cache policy (createpolicy).
//   C6_DW, C6_ITEMS, C6_PF, C6_MINB: data warps, floats per data thread, L2 prefetch distance in
//                 tiles, min blocks per SM in __launch_bounds__ (05: 8, 32, 128, 4).
//   C6_NOLB    1: DIAGNOSTIC ONLY, WRONG RESULTS: no look-back and no status words (every tile's
//                 prefix is taken as 0). Timing-only: what the same kernel costs without the chain.
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstdint>

#ifndef C6_TICKET
#define C6_TICKET 1
#endif
#ifndef C6_POLL1
#define C6_POLL1 0
#endif
#ifndef C6_ST
#define C6_ST 0
#endif
#ifndef C6_LD
#define C6_LD 0
#endif
#ifndef C6_DW
#define C6_DW 8
#endif
#ifndef C6_ITEMS
#define C6_ITEMS 32
#endif
#ifndef C6_PF
#define C6_PF 128
#endif
#ifndef C6_MINB
#define C6_MINB 4
#endif
#ifndef C6_NOLB
#define C6_NOLB 0
#endif

namespace {

constexpr int kDataWarps = C6_DW;
constexpr int kItems = C6_ITEMS;           // floats per data thread (a multiple of 4)
constexpr int kPrefetchTiles = C6_PF;      // how far ahead (in tiles) a block asks L2 for a tile
constexpr int kStatusStride = 16;          // one status word per 128-byte line
constexpr int kLookback = 1;               // predecessors each lane reads per look-back step
constexpr int kBackoffNs = 100;            // __nanosleep between polls of a word that is not ready
constexpr bool kEarlyInclusive = true;
constexpr int kMinBlocks = C6_MINB;
constexpr bool kTicket = C6_TICKET != 0;
constexpr bool kPollNearest = C6_POLL1 != 0;
constexpr int kStore = C6_ST;
constexpr int kLoad = C6_LD;
constexpr bool kNoLookback = C6_NOLB != 0;
constexpr int kThreads = (kDataWarps + 1) * 32;
constexpr int kSeg = 32 * kItems;          // floats per data warp
constexpr int kTile = kDataWarps * kSeg;
constexpr int kChunks = kItems / 4;
constexpr unsigned kAggregate = 1, kInclusive = 2;  // the state in a status word's tag
constexpr unsigned kFull = 0xffffffffu;
static_assert(kItems % 4 == 0, "float4 chunks");
static_assert(kStore >= 0 && kStore <= 2 && kLoad >= 0 && kLoad <= 2, "switch values");

__device__ unsigned int g_next_tile = 0;

__device__ __forceinline__ void Publish(unsigned long long* status, int tile, unsigned tag, float value) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[size_t(tile) * kStatusStride]);
  word.store((static_cast<unsigned long long>(tag) << 32) | __float_as_uint(value), cuda::memory_order_relaxed);
}

__device__ __forceinline__ unsigned long long LoadStatus(unsigned long long* status, int tile) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[size_t(tile) * kStatusStride]);
  return word.load(cuda::memory_order_relaxed);
}

// One float4 of the input (full tiles only).
__device__ __forceinline__ float4 LoadIn(const float4* p, unsigned long long policy) {
  if constexpr (kLoad == 1) {
    float4 x;
    asm("ld.global.nc.L1::no_allocate.v4.f32 {%0, %1, %2, %3}, [%4];\n"
        : "=f"(x.x), "=f"(x.y), "=f"(x.z), "=f"(x.w)
        : "l"(p));
    return x;
  } else if constexpr (kLoad == 2) {
    float4 x;
    asm("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;\n"
        : "=f"(x.x), "=f"(x.y), "=f"(x.z), "=f"(x.w)
        : "l"(p), "l"(policy));
    return x;
  } else {
    (void)policy;
    return *p;
  }
}

// The sum of the tiles before `tile` (one warp; every lane gets it). Each step reads a window of
// 32 * kLookback predecessors, waits until each has published something in this call, and adds
// the values from the nearest tile back to the nearest inclusive prefix.
__device__ float LookBack(unsigned long long* status, int tile, unsigned first_tag, int lane) {
  // Before tile 0 there is nothing to add: it reads as an inclusive prefix of 0, which ends the walk.
  const unsigned long long kStart = static_cast<unsigned long long>(first_tag + 1) << 32;
  float exclusive = 0.0f;
  if constexpr (kPollNearest) {
    // C6_POLL1: one lane waits for the youngest predecessor (tile >= 1 here) before the first
    // window is read; the other lanes wait at the __syncwarp without polling.
    if (lane == 0) {
      while (unsigned(LoadStatus(status, tile - 1) >> 32) < first_tag) {
        if (kBackoffNs > 0) __nanosleep(kBackoffNs);
      }
    }
    __syncwarp();
  }
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

__device__ __forceinline__ void PrefetchAhead(const float* in, int n, int num_tiles, int tile, bool vector_ok) {
  // The prefetch stays inside the input (whole 16-byte units, never past N) and needs 16-byte
  // alignment, as the vector path does.
  const int ahead = tile + kPrefetchTiles;
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

__global__ void __launch_bounds__(kThreads, kMinBlocks)
    ScanTiles(const float* __restrict__ in, float* __restrict__ out, int n, unsigned long long* status, unsigned epoch,
              int num_tiles, bool vector_ok) {
#if C6_ST == 2
  // The scanned tile for the bulk store, with the block's other shared words inside it, so that a
  // block takes exactly 32 KB and 4 blocks fit the 132 KB carveout (the largest L1 left for 4):
  // they are all last read before the data warps' second bar.sync 1 below, the tile is written after.
  __shared__ union {
    float4 out[kTile / 4];
    struct {
      float totals[kDataWarps];
      float exclusive;
      int tile;
      int ready;
    } m;
  } s_union;
  float* const warp_totals = s_union.m.totals;
  float& s_exclusive = s_union.m.exclusive;
  int& s_tile = s_union.m.tile;
  int& s_ready = s_union.m.ready;
  float4* const s_out = s_union.out;
#else
  __shared__ float warp_totals[kDataWarps];
  __shared__ float s_exclusive;
  __shared__ int s_tile;
  __shared__ int s_ready;  // the look-back warp has written s_exclusive
#endif
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

  int tile;
  if constexpr (kTicket) {
    if (tid == 0) {
      const unsigned t = atomicAdd(&g_next_tile, 1u);
      if (t == unsigned(num_tiles) - 1) atomicExch(&g_next_tile, 0u);  // the last ticket: reset for the next call
      s_tile = int(t);
      s_ready = 0;
      PrefetchAhead(in, n, num_tiles, int(t), vector_ok);
    }
    __syncthreads();
    tile = s_tile;
  } else {
    // C6_TICKET 0: the tile is the block's index; nothing to wait for before the loads.
    tile = int(blockIdx.x);
    if (tid == 0) PrefetchAhead(in, n, num_tiles, tile, vector_ok);
    // s_ready is cleared by the thread that later reads it (tid 32), before anything else it does.
    // If warp 0 sets it to 1 first and this clears it, tid 32 reads 0 and takes 05's slow path
    // (aggregate now, inclusive after barrier B): correct either way. Shared memory is not cleared
    // between blocks, so the clear must come from this block.
    if (tid == 32) *static_cast<volatile int*>(&s_ready) = 0;
  }
  const int base = tile * kTile;  // < 2^28 + kTile
  const int valid = min(kTile, n - base);
  const bool full = valid == kTile && vector_ok;
  const unsigned first_tag = epoch * 4 + kAggregate;

  if (warp == 0) {
    float exclusive = 0.0f;
    if constexpr (!kNoLookback) exclusive = tile > 0 ? LookBack(status, tile, first_tag, lane) : 0.0f;
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
  unsigned long long policy = 0;
  if constexpr (kLoad == 2) asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(policy));
  float4 v[kChunks];
  if (full) {
    const float4* in4 = reinterpret_cast<const float4*>(in + base + seg);
#pragma unroll
    for (int k = 0; k < kChunks; ++k) v[k] = LoadIn(in4 + k * 32 + lane, policy);
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
  if (!kNoLookback && tid == 32) {
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
  if (!kNoLookback && tid == 32 && !inclusive_done) Publish(status, tile, epoch * 4 + kInclusive, exclusive + tile_total);
  const float prefix = exclusive + before_warp;
  if (full) {
#if C6_ST == 2
    // The warp's segment into shared memory (the same layout as in global memory), then one bulk
    // copy of 4 KB by lane 0. The writes reach the copy engine through the async-proxy fence.
    // First every data warp must have read s_exclusive, which the tile overwrites (`full` is the
    // same for the whole block, so all data warps take this barrier).
    asm volatile("bar.sync 1, %0;\n" ::"r"(kDataWarps * 32) : "memory");
    float4* staged = s_out + seg / 4;
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      staged[k * 32 + lane] = make_float4(prefix + v[k].x, prefix + v[k].y, prefix + v[k].z, prefix + v[k].w);
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncwarp();
    if (lane == 0) {
      const unsigned long long dst = static_cast<unsigned long long>(__cvta_generic_to_global(out + base + seg));
      const unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(staged));
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(dst), "r"(src), "r"(kSeg * 4)
                   : "memory");
      asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");  // shared memory read: may exit
    }
#else
    float4* out4 = reinterpret_cast<float4*>(out + base + seg);
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const float4 r = make_float4(prefix + v[k].x, prefix + v[k].y, prefix + v[k].z, prefix + v[k].w);
      if constexpr (kStore == 1) {
        __stcs(out4 + k * 32 + lane, r);
      } else {
        out4[k * 32 + lane] = r;
      }
    }
#endif
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

#ifdef C6_PROBE_FN
// Harness only (build.sh passes -DC6_PROBE_FN=probe_NAME): what the occupancy calculator makes of
// this variant's kernel. Host code; the kernel is the same with or without it.
#include <cstdio>
extern "C" void C6_PROBE_FN(const char* name) {
  int blocks = 0;
  cudaFuncAttributes a{};
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, ScanTiles, kThreads, 0);
  cudaFuncGetAttributes(&a, ScanTiles);
  std::printf("occupancy %-24s %d blocks/SM (calculator), %d regs, %zu B static smem, %d local B, %d threads, tile %d\n",
              name, blocks, a.numRegs, a.sharedSizeBytes, int(a.localSizeBytes), kThreads, kTile);
}
#endif

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

// Candidate single-pass scans for prefix_sum (2026-12-04 sweep), selected by template arguments.
//
// Shared design: a decoupled look-back scan (tickets, one status word per tile, 04's tags and
// epochs) in which warp 0 of each block does nothing but the look-back and starts it right after
// the ticket, while the tile's loads are still in flight; the other DW "data" warps load the tile,
// reduce it, publish its aggregate, scan it and store. So a tile's look-back no longer waits for its
// own loads and scan (04: load, scan, barrier, then look-back), and its aggregate no longer waits
// for the in-tile scan.
//
// kTma = true: thread 0 copies the whole tile into shared memory with one or more
//   cp.async.bulk (the copy engine, no registers, completion on an mbarrier). kHold picks whether
//   the data warps keep their values in registers after the first read (true) or read shared
//   memory again after the look-back (false: fewer registers, more blocks per SM).
// kTma = false: the data warps load their values straight into registers (float4), no shared
//   memory for the data at all.
// Layout inside a tile: data warp w owns 32 * kItems consecutive floats; its lane l holds float4
// number k * 32 + l of that segment for k < kItems / 4 (coalesced, and conflict-free in shared
// memory without padding). Each chunk k is scanned across the warp; chunks are chained by their
// totals (a blocked scan: no long serial float run).
#pragma once
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstdint>
#include <cstdio>

namespace scan {

constexpr unsigned kAggregate = 1, kInclusive = 2;
constexpr unsigned kFull = 0xffffffffu;

template <int kStride>
__device__ __forceinline__ void Publish(unsigned long long* status, int tile, unsigned tag, float value) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[size_t(tile) * kStride]);
  word.store((static_cast<unsigned long long>(tag) << 32) | __float_as_uint(value), cuda::memory_order_relaxed);
}

template <int kStride>
__device__ __forceinline__ unsigned long long LoadStatus(unsigned long long* status, int tile) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[size_t(tile) * kStride]);
  return word.load(cuda::memory_order_relaxed);
}

// 04's look-back, kLb predecessors per lane per step (loads of one step in flight together).
template <int kStride, int kBackoff, int kLb>
__device__ float LookBack(unsigned long long* status, int tile, unsigned first_tag, int lane) {
  const unsigned long long kStart = static_cast<unsigned long long>(first_tag + 1) << 32;  // "inclusive 0"
  float exclusive = 0.0f;
  for (int window = tile - 1;; window -= 32 * kLb) {
    unsigned long long w[kLb];
#pragma unroll
    for (int j = 0; j < kLb; ++j) {
      const int pred = window - lane * kLb - j;
      w[j] = pred >= 0 ? LoadStatus<kStride>(status, pred) : kStart;
    }
#pragma unroll
    for (int j = 0; j < kLb; ++j) {
      while (unsigned(w[j] >> 32) < first_tag) {
        if (kBackoff > 0) __nanosleep(kBackoff);
        w[j] = LoadStatus<kStride>(status, window - lane * kLb - j);
      }
    }
    float sum = 0.0f;
    bool found = false;
#pragma unroll
    for (int j = 0; j < kLb; ++j) {
      if (!found) {
        sum += __uint_as_float(unsigned(w[j]));
        found = unsigned(w[j] >> 32) - first_tag + kAggregate == kInclusive;
      }
    }
    const unsigned inclusive = __ballot_sync(kFull, found);
    const int stop = inclusive ? __ffs(inclusive) - 1 : 31;
    float v = lane <= stop ? sum : 0.0f;
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(kFull, v, d);
    exclusive += v;
    if (inclusive) return exclusive;
  }
}

__device__ __forceinline__ unsigned SmemAddr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ float Sum4(const float4 x) { return (x.x + x.y) + (x.z + x.w); }

template <int kDw, int kItems, bool kTma, bool kHold, int kPrefetch, int kStride, int kMinBlocks, int kPieces,
          int kBackoff, int kLb, bool kEarly, bool kCs, int kLd = 0, int kUnique = 0>
__global__ void __launch_bounds__((kDw + 1) * 32, kMinBlocks)
    ScanKernel(const float* __restrict__ in, float* __restrict__ out, int n, unsigned long long* status,
               unsigned epoch, int num_tiles, bool vector_ok, unsigned* ticket) {
  constexpr int kTile = kDw * 32 * kItems;
  constexpr int kSeg = 32 * kItems;  // floats per data warp
  constexpr int kChunks = kItems / 4;
  static_assert(kItems % 4 == 0, "float4 chunks");
  static_assert(!kTma || (kTile * 4) % (16 * kPieces) == 0, "bulk copies in 16-byte units");
  constexpr bool kRegs = !kTma || kHold;  // values held in registers between the two phases

  extern __shared__ float4 sdata[];  // kTma: the tile
  __shared__ alignas(8) unsigned long long bar;
  __shared__ float warp_totals[kDw];
  __shared__ float s_exclusive;
  __shared__ int s_tile;
  __shared__ int s_ready;  // kEarly: the look-back warp has its exclusive prefix
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

  if (tid == 0) {
    const unsigned t = atomicAdd(ticket, 1u);
    if (t == unsigned(num_tiles) - 1) atomicExch(ticket, 0u);
    s_tile = int(t);
    s_ready = 0;
    const int base = int(t) * kTile;
    if constexpr (kTma) {
      if (vector_ok && n - base >= kTile) {
        const unsigned b = SmemAddr(&bar);
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(b), "r"(kTile * 4) : "memory");
        constexpr int kPieceFloats = kTile / kPieces;
#pragma unroll
        for (int p = 0; p < kPieces; ++p) {
          asm volatile(
              "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                  SmemAddr(reinterpret_cast<float*>(sdata) + p * kPieceFloats)),
              "l"(in + base + p * kPieceFloats), "r"(kPieceFloats * 4), "r"(b)
              : "memory");
        }
      }
    }
    const int ahead = int(t) + kPrefetch;
    if (kPrefetch > 0 && vector_ok && ahead < num_tiles) {
      const int ahead_base = ahead * kTile;
      const int bytes = (min(kTile, n - ahead_base) * 4) & ~15;
      if (bytes > 0) {
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(in + ahead_base), "r"(bytes) : "memory");
      }
    }
  }
  __syncthreads();
  const int tile = s_tile;
  const int base = tile * kTile;
  const int valid = min(kTile, n - base);
  const bool full = valid == kTile && vector_ok;
  const unsigned first_tag = epoch * 4 + kAggregate;

  if (warp == 0) {  // the look-back warp: starts now, while the tile is still on its way
    float exclusive = 0.0f;
    if (tile > 0) exclusive = LookBack<kStride, kBackoff, kLb>(status, tile, first_tag, lane);
    if (lane == 0) {
      s_exclusive = exclusive;
      if (kEarly) {
        __threadfence_block();
        *static_cast<volatile int*>(&s_ready) = 1;
      }
    }
    __syncthreads();  // (B) hands the exclusive prefix to the data warps
    return;
  }

  const int dw = warp - 1;
  const int seg = dw * kSeg;  // first float of this warp's segment within the tile
  float4* my = sdata + seg / 4;  // kTma only
  float4 v[kRegs ? kChunks : 1];

  auto load_global = [&](int k) -> float4 {
    if (full) {
      const float4* p = reinterpret_cast<const float4*>(in + base + seg) + k * 32 + lane;
      if constexpr (kLd == 1) {  // run 3: no L1 line allocated for the data
        float4 x;
        asm("ld.global.nc.L1::no_allocate.v4.f32 {%0, %1, %2, %3}, [%4];\n"
            : "=f"(x.x), "=f"(x.y), "=f"(x.z), "=f"(x.w)
            : "l"(p));
        return x;
      } else {
        return *p;
      }
    }
    const int e = seg + (k * 32 + lane) * 4;
    float4 x;
    x.x = e < valid ? in[base + e] : 0.0f;
    x.y = e + 1 < valid ? in[base + e + 1] : 0.0f;
    x.z = e + 2 < valid ? in[base + e + 2] : 0.0f;
    x.w = e + 3 < valid ? in[base + e + 3] : 0.0f;
    return x;
  };

  // Phase 1: the tile total, as soon as the data is here.
  float lane_sum = 0.0f;
  if constexpr (kTma) {
    if (full) {
      const unsigned b = SmemAddr(&bar);
      unsigned done = 0;
      do {
        asm volatile(
            "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
            : "=r"(done)
            : "r"(b), "r"(0)
            : "memory");
      } while (!done);
    } else {
      // Each lane writes and later reads back only its own float4s: no barrier needed.
#pragma unroll
      for (int k = 0; k < kChunks; ++k) my[k * 32 + lane] = load_global(k);
    }
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const float4 x = my[k * 32 + lane];
      if constexpr (kRegs) v[k] = x;
      lane_sum += Sum4(x);
    }
  } else {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) v[k] = load_global(k);
#pragma unroll
    for (int k = 0; k < kChunks; ++k) lane_sum += Sum4(v[k]);
  }
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) lane_sum += __shfl_xor_sync(kFull, lane_sum, d);
  if (lane == 0) warp_totals[dw] = lane_sum;
  asm volatile("bar.sync 1, %0;\n" ::"r"(kDw * 32) : "memory");  // data warps only
  float before_warp = 0.0f, tile_total = 0.0f;
#pragma unroll
  for (int w = 0; w < kDw; ++w) {
    const float t = warp_totals[w];
    if (w < dw) before_warp += t;
    tile_total += t;
  }
  bool inclusive_done = tile == 0;
  if (tid == 32) {  // publishes both words of this tile (program order keeps them in order)
    if (kEarly && tile > 0 && *static_cast<volatile int*>(&s_ready)) {
      // The look-back finished before the data: skip the aggregate, publish the inclusive prefix.
      __threadfence_block();
      Publish<kStride>(status, tile, epoch * 4 + kInclusive, *static_cast<volatile float*>(&s_exclusive) + tile_total);
      inclusive_done = true;
    } else {
      Publish<kStride>(status, tile, epoch * 4 + (tile == 0 ? kInclusive : kAggregate), tile_total);
    }
  }

  // Phase 2: in-warp scan (before the barrier when the values are in registers: it overlaps the
  // look-back), then add the prefix and store.
  auto scan_chunks = [&](float4* x) {
    float carry = 0.0f;
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      x[k].y += x[k].x;
      x[k].z += x[k].y;
      x[k].w += x[k].z;
      float inc = x[k].w;
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const float y = __shfl_up_sync(kFull, inc, d);
        if (lane >= d) inc += y;
      }
      float ex = __shfl_up_sync(kFull, inc, 1);
      if (lane == 0) ex = 0.0f;
      const float chunk_total = __shfl_sync(kFull, inc, 31);
      const float before = carry + ex;  // within the warp's segment; the prefix comes later
      x[k].x += before;
      x[k].y += before;
      x[k].z += before;
      x[k].w += before;
      carry += chunk_total;
    }
  };
  auto store = [&](int k, float4 r) {
    if (full) {
      if (kCs) {
        __stcs(reinterpret_cast<float4*>(out + base + seg) + k * 32 + lane, r);
      } else {
        reinterpret_cast<float4*>(out + base + seg)[k * 32 + lane] = r;
      }
    } else {
      const int e = seg + (k * 32 + lane) * 4;
      if (e < valid) out[base + e] = r.x;
      if (e + 1 < valid) out[base + e + 1] = r.y;
      if (e + 2 < valid) out[base + e + 2] = r.z;
      if (e + 3 < valid) out[base + e + 3] = r.w;
    }
  };

  if constexpr (kRegs) scan_chunks(v);
  __syncthreads();  // (B)
  const float exclusive = s_exclusive;
  if (tid == 32 && !inclusive_done) Publish<kStride>(status, tile, epoch * 4 + kInclusive, exclusive + tile_total);
  const float prefix = exclusive + before_warp;
  if constexpr (kRegs) {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      store(k, make_float4(prefix + v[k].x, prefix + v[k].y, prefix + v[k].z, prefix + v[k].w));
    }
  } else {
    // One chunk at a time, so that the values need no registers across the look-back.
    float carry = 0.0f;
#pragma unroll 2
    for (int k = 0; k < kChunks; ++k) {
      float4 x = my[k * 32 + lane];
      x.y += x.x;
      x.z += x.y;
      x.w += x.z;
      float inc = x.w;
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const float y = __shfl_up_sync(kFull, inc, d);
        if (lane >= d) inc += y;
      }
      float ex = __shfl_up_sync(kFull, inc, 1);
      if (lane == 0) ex = 0.0f;
      const float chunk_total = __shfl_sync(kFull, inc, 31);
      const float before = prefix + (carry + ex);
      store(k, make_float4(before + x.x, before + x.y, before + x.z, before + x.w));
      carry += chunk_total;
    }
  }
}

__device__ unsigned g_tickets[64];

struct Config {
  const char* name;
  void (*solve)(const float*, float*, int);
};

// One host entry per template instance; `slot` picks its ticket counter.
template <int kSlot, int kDw, int kItems, bool kTma, bool kHold, int kPrefetch, int kStride, int kMinBlocks,
          int kPieces = 1, int kBackoff = 100, int kLb = 1, bool kEarly = false, bool kCs = false,
          int kCarve = 100, int kLd = 0>
void Solve(const float* input, float* output, int n) {
  constexpr int kTile = kDw * 32 * kItems;
  constexpr int kThreads = (kDw + 1) * 32;
  constexpr int kSmem = kTma ? kTile * 4 : 0;
  auto kernel =
      ScanKernel<kDw, kItems, kTma, kHold, kPrefetch, kStride, kMinBlocks, kPieces, kBackoff, kLb, kEarly, kCs, kLd,
                 kSlot>;  // one function per slot: the carveout attribute is per function
  static unsigned long long* status = nullptr;
  static int capacity = 0;
  static unsigned epoch = 0;
  static unsigned* ticket = nullptr;
  static bool configured = false;
  if (n <= 0) return;
  if (!configured) {
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem) != cudaSuccess) return;
    // Runs 1-2 set 100 for every variant (kCarve's default); run 3 picks it per variant, and kCarve < 0
    // leaves the driver's choice alone (no call at all, as in the samples).
    if (kCarve >= 0 && cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, kCarve) != cudaSuccess) {
      return;
    }
#ifdef SCAN_REPORT_OCCUPANCY
    int blocks = 0;
    cudaFuncAttributes a{};
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kThreads, kSmem);
    cudaFuncGetAttributes(&a, kernel);
    std::printf("occupancy slot %-2d dw%d i%d tma%d carve%d ld%d: %d blocks/SM (calculator), %d regs, %zu B static smem\n",
                kSlot, kDw, kItems, int(kTma), kCarve, kLd, blocks, a.numRegs, a.sharedSizeBytes);
#endif
    void* p = nullptr;
    if (cudaGetSymbolAddress(&p, g_tickets) != cudaSuccess) return;
    ticket = static_cast<unsigned*>(p) + kSlot;
    configured = true;
  }
  const int num_tiles = (n + kTile - 1) / kTile;
  if (num_tiles > capacity) {
    cudaFree(status);
    if (cudaMalloc(&status, size_t(num_tiles) * kStride * sizeof(*status)) != cudaSuccess) {
      status = nullptr;
      capacity = 0;
      return;
    }
    if (cudaMemset(status, 0, size_t(num_tiles) * kStride * sizeof(*status)) != cudaSuccess) return;
    capacity = num_tiles;
  }
  ++epoch;
  const bool vector_ok = (reinterpret_cast<uintptr_t>(input) | reinterpret_cast<uintptr_t>(output)) % 16 == 0;
  kernel<<<num_tiles, kThreads, kSmem>>>(input, output, n, status, epoch, num_tiles, vector_ok, ticket);
}

}  // namespace scan

// SPDX-License-Identifier: MIT
// problem: softmax
// expect: AC
// What it teaches: a row too long for one SM can live in the shared memory of a thread block
// cluster, and clusters that stay resident and stream their rows through a ring of bulk copies
// (TMA) keep DRAM busy while no block ever waits on global memory. 05 splits long rows over a
// resident grid whose blocks publish each chunk's pair (m, s) in global memory and poll for their
// row's count: every step pays a chain of global round trips, and its second read of a chunk must
// still find it in L2. Here each cluster of 8 blocks (the portable size, one block per SM) owns
// rows c, c + C, c + 2C, ... of the matrix (C clusters, as many as the GPU holds at once); block r
// of a cluster owns the r-th eighth of each of its rows and keeps it in a ring of S shared-memory
// stages of 8192 floats (32 KB; S = 6 here). One thread loads the stages with cp.async.bulk, each
// copy completing on its stage's mbarrier, in the block's own order (row after row, each part
// chunk by chunk), S chunks ahead: the first chunks of the next row are in flight while a row is
// being finished. Per row:
//   1. each thread reads its elements of each chunk as it lands, writes expf(x - m) back into the
//      stage (m: its maximum in the chunk, also kept) and merges (m, sum) into an online pair
//      (maximum, sum of expf(x - maximum)); the block merges these into one pair, which warp 0
//      writes into a shared-memory slot chosen by the row's parity;
//   2. a cluster barrier (arrive.release / wait.acquire); every warp then reads the 8 blocks'
//      slots through distributed shared memory and merges them in the same lanes and order in
//      every block, so every block gets the same bits of the row's (M, S);
//   3. each thread writes e * expf(m - M) / S for the exponentials e of its chunk, from the
//      stage, with streaming stores; after each chunk every thread fences the async proxy, the
//      block meets and the loading thread reuses the freed stage for the chunk S further on.
// DRAM sees one read and one write of the matrix; blocks synchronise only with the 7 others of
// their cluster, once per row, while the copies already issued keep loading. The slot of row j is
// written again only for row j + 2, after row j + 1's barrier, which a block reaches only after
// reading row j's slots; a last cluster barrier keeps every block (and its shared memory) alive
// until its peers have read it. All blocks of a cluster walk the same rows, so they meet at the
// same barriers; clusters never wait for each other. The ring must hold a whole part with a stage
// to spare: phase 1 waits for the whole part before phase 2 frees a stage.
// Where the ring does not apply (rows under 131072 floats, rows not on 16-byte boundaries, no
// clusters on the GPU), 05's paths run: a warp or a block per row for short rows, its lagged
// resident grid for long ones, and a block per row reading its row twice as the last resort.
// Measured on an H100 80GB HBM3 (docs/results/h100-2026-12-05-softmax-cluster-ring/: cold L2,
// CUDA events, median of 25 calls), 256 x 262144: 198.1 us with 256 threads a block, against 05's
// 231.7 us and a device-to-device copy's 181.6 us of the same bytes; 512 x 131072: 220.4 us (05:
// 232.7 us). Rows of 32768 and 65536 floats were slower in the ring (430 and 261 us) than in 05's
// lagged grid (232 us): a block's part of 4096 or 8192 floats (one chunk at most) is too little
// work to hide a cluster barrier per row, hence the 131072 threshold. 512 threads (202.6 us),
// 7 stages (202.5 us, without the stored exponentials), clusters of 16 (261.2 us), 16 KB stages
// (203.0 us), a producer warp (200.4 us) and __expf (200.8 us) were no better.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdint.h>

namespace cg = cooperative_groups;

namespace {

constexpr float kNegBig = -3.402823466e38f;  // -FLT_MAX: below every input; expf(kNegBig - m) is 0

struct Stat {
  float m, s;  // the maximum, and the sum of expf(x - m)
};

__device__ __forceinline__ Stat Merge(Stat a, Stat b) {
  const float m = fmaxf(a.m, b.m);
  if (m == kNegBig) return {m, 0.0f};  // both empty: no 0 * inf
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

__device__ __forceinline__ Stat WarpMerge(Stat t) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1)
    t = Merge(t, {__shfl_xor_sync(0xffffffffu, t.m, off), __shfl_xor_sync(0xffffffffu, t.s, off)});
  return t;
}

// The block's pair, in every thread.
template <int kThreads>
__device__ __forceinline__ Stat BlockMerge(Stat t, Stat* warp_stats) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  t = WarpMerge(t);
  if (lane == 0) warp_stats[warp] = t;
  __syncthreads();
  t = lane < kThreads / 32 ? warp_stats[lane] : Stat{kNegBig, 0.0f};
  t = WarpMerge(t);
  __syncthreads();  // warp_stats is reused by the next chunk
  return t;
}

// ================================================================================================
// The cluster ring (compute capability 9.0)
// ================================================================================================

__device__ __forceinline__ uint32_t SmemAddr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ void BarInit(uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(SmemAddr(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void BarInitFence() {  // the initialised barriers, visible to the copy engine
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
// One arrival that also announces `bytes` more to come from the copy engine.
__device__ __forceinline__ void BarExpect(uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(SmemAddr(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void BarArrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(SmemAddr(bar)) : "memory");
}
// Waits until the phase of parity `parity` of the barrier has completed.
__device__ __forceinline__ void BarWait(uint64_t* bar, unsigned parity) {
  unsigned done;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(SmemAddr(bar)), "r"(parity)
                 : "memory");
  } while (!done);
}
// Global -> this block's shared memory, `bytes` (a multiple of 16, both ends on 16 bytes),
// completing on `bar`. kEvictFirst marks the input's lines first to go from L2 (it is read once).
template <bool kEvictFirst>
__device__ __forceinline__ void BulkLoad(void* dst, const void* src, unsigned bytes, uint64_t* bar) {
  if (kEvictFirst) {
    uint64_t policy;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;" ::
            "r"(SmemAddr(dst)),
        "l"(src), "r"(bytes), "r"(SmemAddr(bar)), "l"(policy)
        : "memory");
  } else {
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(SmemAddr(dst)),
        "l"(src), "r"(bytes), "r"(SmemAddr(bar))
        : "memory");
  }
}
// Orders this thread's earlier reads and writes of shared memory before the copy engine's later
// writes to it (each thread that touched a stage runs it before the block meets).
__device__ __forceinline__ void FenceProxyAsync() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
// Every thread of every block of the cluster; the release/acquire pair makes the shared-memory
// writes before it visible to the other blocks' reads after it.
__device__ __forceinline__ void ClusterSync() {
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}
// The kThreads threads that compute (named barrier 1; with a producer warp, it does not join).
template <int kThreads>
__device__ __forceinline__ void ConsumerSync() {
  asm volatile("barrier.sync 1, %0;" ::"n"(kThreads) : "memory");
}
#endif

// Knobs of the ring kernel besides its sizes, as bits of kFlags:
// - kExpStore: phase 1 writes expf(x - m) back into the stage (m: the thread's maximum of the
//   chunk, kept in shared memory too) and phase 2 only scales it: one expf per element, not two;
// - kProducerWarp: one more warp issues the loads; the computing warps free a stage by arriving
//   on its "empty" mbarrier instead of meeting at a block barrier;
// - kEvictFirstLoads: the loads mark the input's lines first to go from L2 (it is read once);
// - kFastExp: __expf for the elements' exponentials (about 2 instructions instead of 8; the
//   statement's error budget allows it: below 5e-6 where outputs exceed 1e-12); merges keep expf.
enum RingFlags { kExpStore = 1, kProducerWarp = 2, kEvictFirstLoads = 4, kFastExp = 8 };

template <bool kFast>
__device__ __forceinline__ float Exp(float x) {
  return kFast ? __expf(x) : expf(x);
}

// The shared memory of one block: the ring, and with kExpStore each thread's maximum of the
// chunk in each stage.
template <int kThreads, int kChunk, int kStages, bool kStore>
constexpr size_t RingSmem() {
  return size_t(kStages) * kChunk * sizeof(float) + (kStore ? size_t(kStages) * kThreads * sizeof(float) : 0);
}

// A grid of clusters of kCluster blocks; cluster c of C owns rows c, c + C, ...; the block of
// rank r owns elements [r * part, (r + 1) * part) of each (the last part may be shorter; part is a
// multiple of 4). Its chunks g = i * nc + k (row i of the cluster, chunk k of nc of the part) go
// through stage g % kStages, loaded once the stage's previous chunk g - kStages is written out.
// kThreads threads compute (kChunk / kThreads floats each per chunk).
template <int kThreads, int kChunk, int kStages, int kCluster, int kFlags>
__global__ void __launch_bounds__(kThreads + ((kFlags & kProducerWarp) ? 32 : 0), 1)
    ClusterRingRows(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int part) {
  constexpr bool kStore = kFlags & kExpStore, kProducer = kFlags & kProducerWarp;
  constexpr bool kEvictFirst = kFlags & kEvictFirstLoads, kFast = kFlags & kFastExp;
  constexpr int kVecs = kChunk / (4 * kThreads), kWarps = kThreads / 32;
  static_assert(kVecs * 4 * kThreads == kChunk, "a chunk is kVecs float4s per thread");
  static_assert((kCluster == 2 || kCluster == 4 || kCluster == 8 || kCluster == 16) && kWarps <= 32, "");
  static_assert(kStages >= 2, "");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(128) unsigned char smem[];
  float* stage = reinterpret_cast<float*>(smem);
  float* tmax = stage + kStages * kChunk;  // kStore: [stage][thread]
  __shared__ __align__(8) uint64_t full[kStages];
  __shared__ __align__(8) uint64_t empty[kProducer ? kStages : 1];
  __shared__ Stat warp_stats[kWarps];
  __shared__ Stat slot[2];  // this block's pair of rows of even / odd index i, read by the cluster

  cg::cluster_group cluster = cg::this_cluster();
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int rank = int(cluster.block_rank());
  const int cid = int(blockIdx.x) / kCluster, clusters = int(gridDim.x) / kCluster;
  // The same for every block of the cluster: they all meet at my_rows + 1 cluster barriers.
  const int my_rows = cid < rows ? (rows - 1 - cid) / clusters + 1 : 0;
  const int begin = min(cols, rank * part), len = min(cols, begin + part) - begin;
  const int nc = (len + kChunk - 1) / kChunk;  // chunks per row in this block (<= kStages - 1)
  const int total = my_rows * nc;              // this block's chunks

  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) {
      BarInit(full + s, 1);
      if (kProducer) BarInit(empty + s, kWarps);
    }
    BarInitFence();
  }
  __syncthreads();

  // Chunk g into stage g % kStages (one thread).
  auto issue = [&](int g) {
    const int i = g / nc, k = g - i * nc;
    const int row = cid + i * clusters, off = k * kChunk;
    const unsigned bytes = unsigned(min(kChunk, len - off)) * 4u;
    uint64_t* bar = full + g % kStages;
    BarExpect(bar, bytes);
    BulkLoad<kEvictFirst>(stage + (g % kStages) * kChunk, in + size_t(row) * cols + begin + off, bytes, bar);
  };

  if (kProducer && tid >= kThreads) {  // the producer warp: lane 0 issues, the warp meets the cluster
    if (lane == 0)
      for (int g = 0; g < kStages && g < total; ++g) issue(g);
    for (int i = 0; i < my_rows; ++i) {
      __syncwarp();
      ClusterSync();  // row i's barrier: the computing warps have merged row i and go on to phase 2
      if (lane == 0)
        for (int k = 0; k < nc; ++k) {
          const int g = i * nc + k;
          if (g + kStages < total) {
            BarWait(empty + g % kStages, unsigned(g / kStages) & 1u);  // chunk g written out
            issue(g + kStages);
          }
        }
    }
    __syncwarp();
    ClusterSync();  // the last one: see below
    return;
  }

  if (!kProducer && tid == 0)
    for (int g = 0; g < kStages && g < total; ++g) issue(g);

  const float4 pad = make_float4(kNegBig, kNegBig, kNegBig, kNegBig);
  for (int i = 0; i < my_rows; ++i) {
    const int row = cid + i * clusters;
    // Phase 1: the part's pair.
    Stat acc = {kNegBig, 0.0f};
    for (int k = 0; k < nc; ++k) {
      const int g = i * nc + k, s = g % kStages, n = min(kChunk, len - k * kChunk);
      BarWait(full + s, unsigned(g / kStages) & 1u);
      float4* x4 = reinterpret_cast<float4*>(stage + s * kChunk);
      float4 v[kVecs];
      float m = kNegBig;
#pragma unroll
      for (int q = 0; q < kVecs; ++q) {
        const int j = tid + q * kThreads;
        v[q] = 4 * j < n ? x4[j] : pad;
        m = fmaxf(m, fmaxf(fmaxf(v[q].x, v[q].y), fmaxf(v[q].z, v[q].w)));
      }
      const float shift = m == kNegBig ? 0.0f : m;  // no elements: every term is expf(-FLT_MAX) = 0
      float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};      // four partial sums: a small tree, not one chain
#pragma unroll
      for (int q = 0; q < kVecs; ++q) {
        const float4 e = make_float4(Exp<kFast>(v[q].x - shift), Exp<kFast>(v[q].y - shift), Exp<kFast>(v[q].z - shift),
                                     Exp<kFast>(v[q].w - shift));
        sum[0] += e.x, sum[1] += e.y, sum[2] += e.z, sum[3] += e.w;
        if (kStore && 4 * (tid + q * kThreads) < n) x4[tid + q * kThreads] = e;
      }
      if (kStore) tmax[s * kThreads + tid] = m;
      acc = Merge(acc, {m, (sum[0] + sum[1]) + (sum[2] + sum[3])});
    }
    acc = WarpMerge(acc);
    if (lane == 0) warp_stats[warp] = acc;
    ConsumerSync<kThreads>();
    if (warp == 0) {
      Stat b = lane < kWarps ? warp_stats[lane] : Stat{kNegBig, 0.0f};
      b = WarpMerge(b);
      if (lane == 0) slot[i & 1] = b;
    }
    // Row i's barrier: every block's slot is written. Row i + 1's barrier comes after every
    // block's reads below; slot[i & 1] is written again only for row i + 2, after it.
    __syncwarp();
    ClusterSync();
    // Lane b < kCluster reads block b's pair; a butterfly over those lanes merges them, and every
    // thread takes lane 0's result: the same inputs in the same lanes and the same operations in
    // every warp of every block, so the same bits.
    Stat r = {kNegBig, 0.0f};
    if (lane < kCluster) r = *cluster.map_shared_rank(&slot[i & 1], lane);
#pragma unroll
    for (int off = kCluster / 2; off > 0; off >>= 1)
      r = Merge(r, {__shfl_xor_sync(0xffffffffu, r.m, off), __shfl_xor_sync(0xffffffffu, r.s, off)});
    r = {__shfl_sync(0xffffffffu, r.m, 0), __shfl_sync(0xffffffffu, r.s, 0)};
    const float inv = 1.0f / r.s;

    // Phase 2: write the part out, and refill each stage as soon as it is free.
    float* y = out + size_t(row) * cols + begin;
    for (int k = 0; k < nc; ++k) {
      const int g = i * nc + k, s = g % kStages, n = min(kChunk, len - k * kChunk);
      const float4* x4 = reinterpret_cast<const float4*>(stage + s * kChunk);
      float4* y4 = reinterpret_cast<float4*>(y + k * kChunk);
      if (kStore) {
        const float tm = tmax[s * kThreads + tid];
        const float f = tm == kNegBig ? 0.0f : expf(tm - r.m) * inv;
#pragma unroll
        for (int q = 0; q < kVecs; ++q) {
          const int j = tid + q * kThreads;
          if (4 * j < n) {
            const float4 e = x4[j];
            __stcs(y4 + j, make_float4(e.x * f, e.y * f, e.z * f, e.w * f));
          }
        }
      } else {
#pragma unroll
        for (int q = 0; q < kVecs; ++q) {
          const int j = tid + q * kThreads;
          if (4 * j < n) {
            const float4 x = x4[j];
            __stcs(y4 + j, make_float4(Exp<kFast>(x.x - r.m) * inv, Exp<kFast>(x.y - r.m) * inv,
                                       Exp<kFast>(x.z - r.m) * inv, Exp<kFast>(x.w - r.m) * inv));
          }
        }
      }
      FenceProxyAsync();  // this thread's reads (and phase-1 writes) of the stage, before its refill
      if (kProducer) {
        __syncwarp();
        if (lane == 0) BarArrive(empty + s);
      } else {
        ConsumerSync<kThreads>();
        if (tid == 0 && g + kStages < total) issue(g + kStages);
      }
    }
  }
  // No block leaves while a peer may still read its slot. (Every chunk issued was waited for, so
  // no copy is in flight into this block's shared memory either.)
  __syncwarp();
  ClusterSync();
#else
  __trap();  // the host launches this kernel only where the device code has clusters
#endif
}

// ================================================================================================
// 05_lagged_rows' paths: short rows, long rows where the ring does not apply
// ================================================================================================

// A row's chunks publish their pairs and count themselves in counts[row]; the chunks of the row
// wait for the count, read the pairs and count themselves again. The counter increments wrap (inc
// with bound b: old >= b ? 0 : old + 1), so after the 2G increments of a row of G chunks the
// count is 0 again: the next call needs no memset.
__device__ __forceinline__ unsigned LoadAcquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ Stat LoadRelaxed(const Stat* p) {  // written by other blocks: not through L1
  Stat s;
  asm volatile("ld.relaxed.gpu.global.v2.f32 {%0,%1}, [%2];" : "=f"(s.m), "=f"(s.s) : "l"(p) : "memory");
  return s;
}
__device__ __forceinline__ void CountRelease(unsigned* p, unsigned bound) {
  asm volatile("red.release.gpu.global.inc.u32 [%0], %1;" ::"l"(p), "r"(bound) : "memory");
}
__device__ __forceinline__ void CountRelaxed(unsigned* p, unsigned bound) {
  asm volatile("red.relaxed.gpu.global.inc.u32 [%0], %1;" ::"l"(p), "r"(bound) : "memory");
}

// A thread's share of elements [begin, end) of row x: kVecs float4s at begin + 4 * (tid + k *
// kThreads) when rows start on 16-byte boundaries (kVec), else 4 * kVecs floats at begin + tid + k *
// kThreads; either way a warp touches contiguous bytes. Padding reads as kNegBig.
template <int kThreads, int kVecs, bool kVec, bool kStreaming>
__device__ __forceinline__ void LoadShare(const float* x, int begin, int end, int tid, float (&v)[4 * kVecs]) {
  if (kVec) {
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      const int j = begin + 4 * (tid + k * kThreads);
      float4 q = make_float4(kNegBig, kNegBig, kNegBig, kNegBig);
      if (j < end) {
        const float4* a = reinterpret_cast<const float4*>(x + j);
        q = kStreaming ? __ldcs(a) : __ldg(a);
      }
      v[4 * k] = q.x, v[4 * k + 1] = q.y, v[4 * k + 2] = q.z, v[4 * k + 3] = q.w;
    }
  } else {
#pragma unroll
    for (int k = 0; k < 4 * kVecs; ++k) {
      const int j = begin + tid + k * kThreads;
      v[k] = j < end ? (kStreaming ? __ldcs(x + j) : __ldg(x + j)) : kNegBig;
    }
  }
}

// y = expf(v - shift) * mul (kExp), or v * mul, for the same elements; streaming stores, so the
// output does not push the input out of L2.
template <int kThreads, int kVecs, bool kVec, bool kExp>
__device__ __forceinline__ void StoreShare(float* y, int begin, int end, int tid, const float (&v)[4 * kVecs],
                                           float shift, float mul) {
  auto f = [&](float x) { return kExp ? expf(x - shift) * mul : x * mul; };
  if (kVec) {
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      const int j = begin + 4 * (tid + k * kThreads);
      if (j < end)
        __stcs(reinterpret_cast<float4*>(y + j),
               make_float4(f(v[4 * k]), f(v[4 * k + 1]), f(v[4 * k + 2]), f(v[4 * k + 3])));
    }
  } else {
#pragma unroll
    for (int k = 0; k < 4 * kVecs; ++k) {
      const int j = begin + tid + k * kThreads;
      if (j < end) __stcs(y + j, f(v[k]));
    }
  }
}

// v <- expf(v - m) with m this thread's maximum; returns the thread's pair. A thread with no
// elements gets {kNegBig, 0}.
template <int kN>
__device__ __forceinline__ Stat ThreadStat(float (&v)[kN]) {
  float m = kNegBig;
#pragma unroll
  for (int k = 0; k < kN; ++k) m = fmaxf(m, v[k]);
  const float shift = m == kNegBig ? 0.0f : m;  // padding gives expf(-FLT_MAX) = 0 either way
  float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};        // four partial sums: a small tree, not one long chain
#pragma unroll
  for (int k = 0; k < kN; ++k) {
    v[k] = expf(v[k] - shift);
    s[k & 3] += v[k];
  }
  return {m, (s[0] + s[1]) + (s[2] + s[3])};
}

// cols <= 1024: a warp per row, 8 rows per block, the row held in registers.
template <bool kVec>
__global__ void __launch_bounds__(256)
    WarpRows(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  const int row = blockIdx.x * 8 + (threadIdx.x >> 5), lane = threadIdx.x & 31;
  if (row >= rows) return;  // the whole warp leaves together
  const float* x = in + size_t(row) * cols;
  float* y = out + size_t(row) * cols;
  float v[32];
  LoadShare<32, 8, kVec, true>(x, 0, cols, lane, v);
  const Stat mine = ThreadStat(v);
  const Stat r = WarpMerge(mine);
  StoreShare<32, 8, kVec, false>(y, 0, cols, lane, v, 0.0f, mine.m == kNegBig ? 0.0f : expf(mine.m - r.m) / r.s);
}

// 05's lagged resident grid. Rows cut into `chunks` chunks of kChunk floats, chunk q = row *
// chunks + c. Block b of the grid of P blocks works on q = b, b + P, b + 2P, ...: at step t it
// reads chunk b + tP (phase A) and finishes chunk b + (t - kLag)P (phase B); with chunks == 1
// phase A finishes its chunk at once. Deadlock free when chunks <= P and every block is resident
// (a cooperative launch): see 05_lagged_rows.cu.
template <int kThreads, int kVecs, int kLag, bool kVec>
__global__ void __launch_bounds__(kThreads, kThreads <= 256 ? 768 / kThreads : 1)
    LaggedRows(const float* __restrict__ in, float* __restrict__ out, int cols, int chunks, int total, Stat* pairs,
               unsigned* counts) {
  constexpr int kN = 4 * kVecs, kChunk = kThreads * kN;
  __shared__ Stat warp_stats[kThreads / 32];
  __shared__ Stat row_stat;
  const int P = gridDim.x, b = blockIdx.x, tid = threadIdx.x;
  const int steps = b < total ? (total - 1 - b) / P + 1 : 0;  // this block's chunks
  const int lag = chunks > 1 ? kLag : 0;
  const unsigned wrap = 2u * chunks - 1u;
  float v[kN];
  for (int t = 0; t < steps + lag; ++t) {
    if (t < steps) {  // phase A
      const int q = b + t * P, row = q / chunks, begin = (q - row * chunks) * kChunk;
      const int end = min(cols, begin + kChunk);
      LoadShare<kThreads, kVecs, kVec, false>(in + size_t(row) * cols, begin, end, tid, v);
      const Stat mine = ThreadStat(v);
      const Stat chunk = BlockMerge<kThreads>(mine, warp_stats);
      if (chunks == 1) {
        StoreShare<kThreads, kVecs, kVec, false>(out + size_t(row) * cols, begin, end, tid, v, 0.0f,
                                                 mine.m == kNegBig ? 0.0f : expf(mine.m - chunk.m) / chunk.s);
      } else if (tid == 0) {
        pairs[q] = chunk;
        CountRelease(counts + row, wrap);  // the pair is visible before the count says so
      }
    }
    if (lag > 0 && t >= lag) {  // phase B: the chunk read kLag steps ago, again (from L2 by now)
      const int q = b + (t - lag) * P, row = q / chunks, begin = (q - row * chunks) * kChunk;
      const int end = min(cols, begin + kChunk);
      const float* x = in + size_t(row) * cols;
      LoadShare<kThreads, kVecs, kVec, true>(x, begin, end, tid, v);  // in flight while warp 0 waits
      if (t >= steps) __syncthreads();  // no phase A barrier this step: row_stat may still be being read
      if (tid < 32) {
        unsigned* count = counts + row;
        while (LoadAcquire(count) < unsigned(chunks)) __nanosleep(32);
        __syncwarp();
        Stat r = {kNegBig, 0.0f};
        for (int c = tid; c < chunks; c += 32) r = Merge(r, LoadRelaxed(pairs + size_t(row) * chunks + c));
        r = WarpMerge(r);  // the same order in every chunk of the row: the same bits
        if (tid == 0) {
          row_stat = r;
          CountRelaxed(count, wrap);
        }
      }
      __syncthreads();
      const Stat r = row_stat;
      StoreShare<kThreads, kVecs, kVec, true>(out + size_t(row) * cols, begin, end, tid, v, r.m, 1.0f / r.s);
    }
  }
}

// The fallback where no resident grid can run: a block per row, reading it twice.
__global__ void __launch_bounds__(1024) TwoPassRows(const float* __restrict__ in, float* __restrict__ out, int cols) {
  __shared__ Stat warp_stats[32];
  const float* x = in + size_t(blockIdx.x) * cols;
  float* y = out + size_t(blockIdx.x) * cols;
  Stat t = {kNegBig, 0.0f};
  for (int j = threadIdx.x; j < cols; j += 1024) t = Merge(t, {x[j], 1.0f});
  t = BlockMerge<1024>(t, warp_stats);
  const float inv = 1.0f / t.s;
  for (int j = threadIdx.x; j < cols; j += 1024) y[j] = expf(x[j] - t.m) * inv;
}

// Scratch for the lagged grid, kept across calls and grown when needed; counts start at zero and
// every call leaves them at zero.
struct Scratch {
  Stat* pairs = nullptr;
  unsigned* counts = nullptr;
  size_t have_pairs = 0, have_counts = 0;
  bool Reserve(size_t n_pairs, size_t n_counts) {
    if (n_pairs > have_pairs) {
      if (pairs && cudaFree(pairs) != cudaSuccess) return false;
      pairs = nullptr;
      have_pairs = 0;
      if (cudaMalloc(&pairs, n_pairs * sizeof(Stat)) != cudaSuccess) return false;
      have_pairs = n_pairs;
    }
    if (n_counts > have_counts) {
      if (counts && cudaFree(counts) != cudaSuccess) return false;
      counts = nullptr;
      have_counts = 0;
      if (cudaMalloc(&counts, n_counts * sizeof(unsigned)) != cudaSuccess ||
          cudaMemset(counts, 0, n_counts * sizeof(unsigned)) != cudaSuccess)
        return false;
      have_counts = n_counts;
    }
    return true;
  }
};

Scratch& TheScratch() {
  static Scratch s;
  return s;
}

// Blocks of `kernel` per SM that fit at once, and SMs; 0 where a cooperative launch is impossible.
void Occupancy(const void* kernel, int threads, int& per_sm, int& sms) {
  int device = 0, coop = 0;
  per_sm = sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device) != cudaSuccess || !coop ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0) != cudaSuccess)
    per_sm = 0;
}

// One chunk per row (cols <= kChunk): a block per row, nothing to wait for.
template <int kThreads, int kVecs>
void ChunkPerRow(const float* in, float* out, int rows, int cols, bool vec) {
  if (vec)
    LaggedRows<kThreads, kVecs, 1, true><<<rows, kThreads>>>(in, out, cols, 1, rows, nullptr, nullptr);
  else
    LaggedRows<kThreads, kVecs, 1, false><<<rows, kThreads>>>(in, out, cols, 1, rows, nullptr, nullptr);
  (void)cudaPeekAtLastError();  // a failed launch has nothing to fall back to: left for the caller
}

// Long rows without the ring: 05's lagged grid (chunks of 8192 floats, lag 1), else a block per
// row reading its row twice.
void LaggedLongRows(const float* in, float* out, int rows, int cols, bool vec) {
  constexpr int kThreads = 256, kVecs = 8, kChunk = kThreads * 4 * kVecs;
  int chunks = (cols + kChunk - 1) / kChunk;
  int total = rows * chunks;  // <= rows * cols <= 2^26
  const void* kernel =
      vec ? (const void*)LaggedRows<kThreads, kVecs, 1, true> : (const void*)LaggedRows<kThreads, kVecs, 1, false>;
  static int per_sm[2] = {-1, -1}, sms[2] = {0, 0};
  if (per_sm[vec] < 0) Occupancy(kernel, kThreads, per_sm[vec], sms[vec]);
  const int resident = sms[vec] * per_sm[vec];
  // The waits are safe only if the grid holds every chunk of a row (see 05).
  int grid = resident < total ? resident : total;
  Scratch& s = TheScratch();
  if (grid >= chunks && s.Reserve(size_t(total), size_t(rows))) {
    Stat* pairs = s.pairs;
    unsigned* counts = s.counts;
    void* args[] = {&in, &out, &cols, &chunks, &total, &pairs, &counts};
    if (cudaLaunchCooperativeKernel(kernel, dim3(unsigned(grid)), dim3(kThreads), args, 0, 0) == cudaSuccess) return;
  }
  (void)cudaGetLastError();  // a refused launch or allocation: the fallback runs instead
  TwoPassRows<<<rows, 1024>>>(in, out, cols);
  (void)cudaPeekAtLastError();  // left for the caller
}

// ================================================================================================
// Host side of the cluster ring
// ================================================================================================

template <int kThreads, int kChunk, int kStages, int kCluster, int kFlags>
struct Ring {
  static constexpr int kBlock = kThreads + ((kFlags & kProducerWarp) ? 32 : 0);
  static constexpr size_t kSmem = RingSmem<kThreads, kChunk, kStages, (kFlags & kExpStore) != 0>();
  // 227 KB a block on compute capability 9.0, less the static shared memory (< 1 KB).
  static_assert(kSmem + 1024 <= 232448, "the ring does not fit one block's shared memory");

  static const void* Kernel() { return (const void*)ClusterRingRows<kThreads, kChunk, kStages, kCluster, kFlags>; }

  // Clusters that can be resident at once (one block per SM); 0 where the ring cannot run (no
  // cluster launch, device code without clusters, not enough shared memory). Asked once.
  static int MaxClusters() {
    static const int clusters = [] {
      const void* kernel = Kernel();
      int device = 0, supported = 0, n = 0;
      cudaFuncAttributes code = {};
      cudaLaunchConfig_t config = {};
      cudaLaunchAttribute attr[1];
      attr[0].id = cudaLaunchAttributeClusterDimension;
      attr[0].val.clusterDim.x = unsigned(kCluster);
      attr[0].val.clusterDim.y = attr[0].val.clusterDim.z = 1;
      config.gridDim = dim3(unsigned(kCluster));
      config.blockDim = dim3(unsigned(kBlock));
      config.dynamicSmemBytes = kSmem;
      config.attrs = attr;
      config.numAttrs = 1;
      const bool ok =
          cudaGetDevice(&device) == cudaSuccess &&
          cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, device) == cudaSuccess && supported &&
          cudaFuncGetAttributes(&code, kernel) == cudaSuccess && code.ptxVersion >= 90 &&
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem)) == cudaSuccess &&
          (kCluster <= 8 ||
           cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) == cudaSuccess) &&
          cudaOccupancyMaxActiveClusters(&n, kernel, &config) == cudaSuccess;
      (void)cudaGetLastError();  // a refused query leaves its error behind: not a failure of solve()
      return ok ? n : 0;
    }();
    return clusters;
  }

  // The ring for rows of `cols` floats on 16-byte boundaries; false where it does not apply or
  // its launch is refused (nothing was written then).
  static bool Run(const float* in, float* out, int rows, int cols) {
    const int part = (cols + 4 * kCluster - 1) / (4 * kCluster) * 4;  // a multiple of 4 floats
    const int nc = (part + kChunk - 1) / kChunk;
    if (nc > kStages - 1) return false;  // a part must fit the ring with a stage to spare
    const int max_clusters = MaxClusters();
    if (max_clusters <= 0) return false;
    const int clusters = max_clusters < rows ? max_clusters : rows;
    cudaLaunchConfig_t config = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = unsigned(kCluster);
    attr[0].val.clusterDim.y = attr[0].val.clusterDim.z = 1;
    config.gridDim = dim3(unsigned(clusters) * unsigned(kCluster));
    config.blockDim = dim3(unsigned(kBlock));
    config.dynamicSmemBytes = kSmem;
    config.stream = 0;
    config.attrs = attr;
    config.numAttrs = 1;
    if (cudaLaunchKernelEx(&config, ClusterRingRows<kThreads, kChunk, kStages, kCluster, kFlags>, in, out, rows, cols,
                           part) == cudaSuccess)
      return true;
    (void)cudaGetLastError();  // refused (a GPU shared under MPS or MIG may run smaller clusters)
    return false;
  }
};

// Which path solve() took (for a harness; solve() ignores it).
enum Path { kPathWarp = 0, kPathBlock = 1, kPathRing = 2, kPathLagged = 3 };

// solve() with the ring's knobs; rows of at least min_ring_cols floats take the ring.
template <int kThreads, int kChunk, int kStages, int kCluster, int kFlags>
int SolveWith(const float* in, float* out, int rows, int cols, int min_ring_cols) {
  const uintptr_t pi = reinterpret_cast<uintptr_t>(in), po = reinterpret_cast<uintptr_t>(out);
  const bool vec = cols % 4 == 0 && pi % 16 == 0 && po % 16 == 0;  // every row starts on 16 bytes
  if (cols <= 1024) {
    const unsigned blocks = unsigned((rows + 7) / 8);
    if (vec)
      WarpRows<true><<<blocks, 256>>>(in, out, rows, cols);
    else
      WarpRows<false><<<blocks, 256>>>(in, out, rows, cols);
    (void)cudaPeekAtLastError();  // a failed launch has nothing to fall back to: left for the caller
    return kPathWarp;
  }
  if (cols <= 4096) {  // whole rows in 256 threads x 16 floats
    ChunkPerRow<256, 4>(in, out, rows, cols, vec);
    return kPathBlock;
  }
  if (cols <= 8192) {
    ChunkPerRow<256, 8>(in, out, rows, cols, vec);
    return kPathBlock;
  }
  if (vec && cols >= min_ring_cols && Ring<kThreads, kChunk, kStages, kCluster, kFlags>::Run(in, out, rows, cols))
    return kPathRing;
  LaggedLongRows(in, out, rows, cols, vec);
  return kPathLagged;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  (void)SolveWith<256, 8192, 6, 8, kExpStore>(input, output, rows, cols, 131072);
}

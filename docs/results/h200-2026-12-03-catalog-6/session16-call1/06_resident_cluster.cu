// SPDX-License-Identifier: MIT
// problem: softmax
// expect: AC
// One read of the input wherever a block, or a cluster of blocks, holds the row. 02 reads a long row twice (statistics,
// then output) and at 256 x 262144 the second read misses L2: three passes over DRAM where two are the floor. Here
// every thread loads its share of a row into registers (8 float4s, 32 floats) once, the row's maximum and sum are
// combined from them, and the output is computed from the same registers. A row longer than one block holds (512 x 32 =
// 16384 floats) is split over a thread block cluster (compute capability 9.0: up to 16 blocks scheduled together, each
// reading the others' shared memory): each block reduces its part to a pair (m, s), the blocks exchange their pairs
// through distributed shared memory, and each writes its part. Where a part outgrows the registers (no clusters on an
// older GPU, or smaller ones), its block reads it twice, as 02 does. Pairs merge as in 02: m = max(m1, m2), s = s1
// expf(m1 - m) + s2 expf(m2 - m). H200 (2026-12-02, docs/results/h200-2026-12-02-catalog-3.md): 132.9 us at 16384 x
// 4096 (87% of the read ceiling), but 221.0 us at 256 x 262144 (52.4%, below 02's 61.6%): a cluster of 16 blocks runs
// only where a GPC has 16 SMs free, so few rows are in flight at once. 04 splits rows without clusters.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdint.h>

namespace cg = cooperative_groups;

namespace {

constexpr float kNegBig = -3.402823466e38f;  // -FLT_MAX: below every input; expf(kNegBig - m) is 0
constexpr int kVecs = 8;                     // float4s per thread held in registers
constexpr int kMaxCluster = 16;              // the H100/H200 non-portable maximum

struct Stat {
  float m, s;  // the maximum, and the sum of expf(x - m)
};

__device__ __forceinline__ Stat Merge(Stat a, Stat b) {
  const float m = fmaxf(a.m, b.m);
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

__device__ __forceinline__ Stat WarpMerge(Stat t) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1)
    t = Merge(t, {__shfl_xor_sync(0xffffffffu, t.m, off), __shfl_xor_sync(0xffffffffu, t.s, off)});
  return t;
}

// The block's pair, in every thread. `scratch` holds one pair per warp.
template <int THREADS>
__device__ Stat BlockMerge(Stat t, Stat* scratch) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  t = WarpMerge(t);
  if (lane == 0) scratch[warp] = t;
  __syncthreads();
  t = lane < THREADS / 32 ? scratch[lane] : Stat{kNegBig, 0.0f};
  t = WarpMerge(t);
  __syncthreads();  // scratch is free again for the caller
  return t;
}

// Elements [begin, end) of a row as tiles of THREADS * 32, 32 elements a thread. Element k of
// thread t's share of the tile at t0: with float4s (vec), lane k % 4 of the thread's float4 k / 4,
// t0 + 4 * (t + (k / 4) * THREADS) + k % 4; one float at a time (rows not on 16-byte boundaries),
// t0 + t + k * THREADS, so a warp still reads 128 contiguous bytes at a time.
template <int THREADS>
__device__ __forceinline__ int Index(int t0, bool vec, int k) {
  return vec ? t0 + 4 * (int(threadIdx.x) + (k / 4) * THREADS) + k % 4 : t0 + int(threadIdx.x) + k * THREADS;
}

// `last` says whether this is the input's last read: streamed past L2 (__ldcs) if so, kept there
// (__ldg) for the second read of a part too long for the registers.
template <int THREADS>
__device__ __forceinline__ void LoadTile(const float* x, int t0, int end, bool vec, bool last, float (&v)[4 * kVecs]) {
  if (vec) {  // end is a multiple of 4 too: a float4 is all in or all out
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      const int i = Index<THREADS>(t0, true, 4 * q);
      float4 f = make_float4(kNegBig, kNegBig, kNegBig, kNegBig);
      if (i < end) {
        const float4* p = reinterpret_cast<const float4*>(x + i);
        f = last ? __ldcs(p) : __ldg(p);
      }
      v[4 * q] = f.x, v[4 * q + 1] = f.y, v[4 * q + 2] = f.z, v[4 * q + 3] = f.w;
    }
  } else {
#pragma unroll
    for (int k = 0; k < 4 * kVecs; ++k) {
      const int i = Index<THREADS>(t0, false, k);
      v[k] = i < end ? (last ? __ldcs(x + i) : __ldg(x + i)) : kNegBig;
    }
  }
}

template <int THREADS>
__device__ __forceinline__ Stat TileStat(const float (&v)[4 * kVecs]) {
  float m = kNegBig;
#pragma unroll
  for (int k = 0; k < 4 * kVecs; ++k) m = fmaxf(m, v[k]);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 4 * kVecs; ++k) s += expf(v[k] - m);  // a missing element adds expf(-huge) = 0
  // A thread with no element at all has m = kNegBig and counted its 32 pads as exp(0): none.
  return m == kNegBig ? Stat{kNegBig, 0.0f} : Stat{m, s};
}

template <int THREADS>
__device__ __forceinline__ void StoreTile(float* y, int t0, int end, bool vec, const float (&v)[4 * kVecs], Stat row) {
  const float inv = 1.0f / row.s;
  if (vec) {
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      const int i = Index<THREADS>(t0, true, 4 * q);
      if (i < end)
        __stcs(reinterpret_cast<float4*>(y + i),
               make_float4(expf(v[4 * q] - row.m) * inv, expf(v[4 * q + 1] - row.m) * inv,
                           expf(v[4 * q + 2] - row.m) * inv, expf(v[4 * q + 3] - row.m) * inv));
    }
  } else {
#pragma unroll
    for (int k = 0; k < 4 * kVecs; ++k) {
      const int i = Index<THREADS>(t0, false, k);
      if (i < end) y[i] = expf(v[k] - row.m) * inv;
    }
  }
}

// Block b is part b % parts of row b / parts; parts > 1 only in a cluster of `parts` blocks.
// At least 1024 threads per SM (64 registers each): a block can load while another stores.
template <int THREADS>
__global__ void __launch_bounds__(THREADS, 1024 / THREADS)
    SoftmaxRows(const float* __restrict__ input, float* __restrict__ output, int cols, int parts, bool vec) {
  __shared__ Stat scratch[THREADS / 32];
  const int row = blockIdx.x / parts, part = blockIdx.x % parts;
  const int chunk = ((cols + parts - 1) / parts + 3) & ~3;  // a multiple of 4: float4s stay aligned
  const int begin = min(cols, part * chunk), end = min(cols, begin + chunk);
  constexpr int kTile = THREADS * 4 * kVecs;
  const float* x = input + size_t(row) * cols;
  float* y = output + size_t(row) * cols;

  float v[4 * kVecs];
  Stat t{kNegBig, 0.0f};
  const bool held = end - begin <= kTile;        // the part fits the registers: read once
  for (int t0 = begin; t0 < end; t0 += kTile) {  // else tile by tile, and again below
    LoadTile<THREADS>(x, t0, end, vec, held, v);
    t = Merge(t, TileStat<THREADS>(v));
  }
  Stat row_stat = BlockMerge<THREADS>(t, scratch);
#if __CUDA_ARCH__ >= 900
  __shared__ Stat block_stat;  // what the other blocks of the cluster read
  if (parts > 1) {
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0) block_stat = row_stat;
    cluster.sync();  // every block's pair is written
    Stat all{kNegBig, 0.0f};
    for (int r = 0; r < parts; ++r) all = Merge(all, *cluster.map_shared_rank(&block_stat, r));
    row_stat = all;
    cluster.sync();  // no block leaves while another still reads its shared memory
  }
#else
  if (parts > 1) __trap();  // the host launched a cluster this device code cannot exchange in
#endif
  if (held) {
    if (begin < end) StoreTile<THREADS>(y, begin, end, vec, v, row_stat);
    return;
  }
  for (int t0 = begin; t0 < end; t0 += kTile) {  // the second read, mostly from L2, as in 02
    LoadTile<THREADS>(x, t0, end, vec, true, v);
    StoreTile<THREADS>(y, t0, end, vec, v, row_stat);
  }
}

constexpr int kHeld = 512 * 4 * kVecs;  // 16384 floats: what a block of 512 threads holds

// The most blocks a cluster of SoftmaxRows<512> may have on this GPU: 16, 8, 4, 2, or 1 where
// there are no clusters (before compute capability 9.0, or device code compiled from an older
// virtual architecture, whose kernel has no exchange: ptxVersion, not binaryVersion, which PTX
// compiled at load time would show as the GPU's own).
int LargestCluster() {
  int device = 0, supported = 0;
  cudaFuncAttributes code = {};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, device) != cudaSuccess || !supported ||
      cudaFuncGetAttributes(&code, SoftmaxRows<512>) != cudaSuccess || code.ptxVersion < 90)
    return 1;
  cudaFuncSetAttribute(SoftmaxRows<512>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  for (int size = kMaxCluster; size > 1; size /= 2) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(unsigned(size));
    config.blockDim = dim3(512);
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = unsigned(size);
    attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
    config.attrs = &attr;
    config.numAttrs = 1;
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, SoftmaxRows<512>, &config) == cudaSuccess && clusters > 0)
      return size;
  }
  return 1;
}


#ifndef SOFTMAX_PREFETCH
#define SOFTMAX_PREFETCH 1  // 1: the next row's part is loaded into a second register set while this one is reduced
#endif
#ifndef SOFTMAX_ONE_EXP
#define SOFTMAX_ONE_EXP 1  // 1: expf once per element, the output rescales it by expf(m_thread - m_row)
#endif

// A resident grid of clusters: cluster c works on rows c, c + C, ... (C clusters), each of its
// `parts` blocks on the same part of every row, the part held in registers. With SOFTMAX_PREFETCH,
// the loads of the next row's part are issued before this row is reduced, exchanged and written,
// so every SM keeps a part's worth of reads in flight through the barriers; no block waits on
// another cluster, so nothing depends on how many clusters are resident.
template <int THREADS, int MIN_BLOCKS>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    SoftmaxResident(const float* __restrict__ input, float* __restrict__ output, int rows, int cols, int parts,
                    int clusters, bool vec) {
#if __CUDA_ARCH__ >= 900
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ Stat scratch[THREADS / 32];
  __shared__ Stat block_stat[2];  // by row parity: a block may write row i + 1's while others read row i's
  const int part = int(cluster.block_rank()), first = int(blockIdx.x) / parts;
  const int chunk = ((cols + parts - 1) / parts + 3) & ~3;
  const int begin = min(cols, part * chunk), end = min(cols, begin + chunk);
  const int lane = threadIdx.x & 31;
  float v[4 * kVecs];
#if SOFTMAX_PREFETCH
  float w[4 * kVecs];
#endif
  if (first < rows) LoadTile<THREADS>(input + size_t(first) * cols, begin, end, vec, true, v);
  int parity = 0;
  for (int row = first; row < rows; row += clusters, parity ^= 1) {
#if SOFTMAX_PREFETCH
    const int next = row + clusters;
    if (next < rows) LoadTile<THREADS>(input + size_t(next) * cols, begin, end, vec, true, w);
#endif
    Stat t;
#if SOFTMAX_ONE_EXP
    {
      float m = kNegBig;
#pragma unroll
      for (int k = 0; k < 4 * kVecs; ++k) m = fmaxf(m, v[k]);
      float s = 0.0f;
#pragma unroll
      for (int k = 0; k < 4 * kVecs; ++k) {
        v[k] = expf(v[k] - m);  // a pad (kNegBig) becomes 0
        s += v[k];
      }
      t = m == kNegBig ? Stat{kNegBig, 0.0f} : Stat{m, s};
    }
#else
    t = TileStat<THREADS>(v);
#endif
    const float own_m = t.m;
    Stat block = BlockMerge<THREADS>(t, scratch);
    if (threadIdx.x == 0) block_stat[parity] = block;
    cluster.sync();  // every block's pair for this row is written
    // Each warp merges the parts' pairs itself: one remote load per lane, then shuffles.
    Stat all = lane < parts ? *cluster.map_shared_rank(&block_stat[parity], lane) : Stat{kNegBig, 0.0f};
    all = WarpMerge(all);
    float* y = output + size_t(row) * cols;
    if (begin < end) {
#if SOFTMAX_ONE_EXP
      const float scale = own_m == kNegBig ? 0.0f : expf(own_m - all.m) / all.s;
      if (vec) {
#pragma unroll
        for (int q = 0; q < kVecs; ++q) {
          const int i = Index<THREADS>(begin, true, 4 * q);
          if (i < end)
            __stcs(reinterpret_cast<float4*>(y + i), make_float4(v[4 * q] * scale, v[4 * q + 1] * scale,
                                                                v[4 * q + 2] * scale, v[4 * q + 3] * scale));
        }
      } else {
#pragma unroll
        for (int k = 0; k < 4 * kVecs; ++k) {
          const int i = Index<THREADS>(begin, false, k);
          if (i < end) y[i] = v[k] * scale;
        }
      }
#else
      StoreTile<THREADS>(y, begin, end, vec, v, all);
#endif
    }
#if SOFTMAX_PREFETCH
#pragma unroll
    for (int k = 0; k < 4 * kVecs; ++k) v[k] = w[k];
#else
    if (row + clusters < rows) LoadTile<THREADS>(input + size_t(row + clusters) * cols, begin, end, vec, true, v);
#endif
  }
  cluster.sync();  // no block leaves while another may still read its shared memory
#else
  __trap();
#endif
}

#if SOFTMAX_PREFETCH
#define SOFTMAX_MIN_BLOCKS 1
#else
#define SOFTMAX_MIN_BLOCKS 2
#endif
#define RESIDENT SoftmaxResident<512, SOFTMAX_MIN_BLOCKS>

// Clusters of `parts` blocks that can be resident at once (0: none, or no clusters here).
int ResidentClusters(int parts) {
  int device = 0, supported = 0;
  cudaFuncAttributes code = {};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, device) != cudaSuccess || !supported ||
      cudaFuncGetAttributes(&code, RESIDENT) != cudaSuccess || code.ptxVersion < 90)
    return 0;
  if (parts > 8 && cudaFuncSetAttribute(RESIDENT, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess)
    return 0;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(unsigned(parts));
  config.blockDim = dim3(512);
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = unsigned(parts);
  attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
  config.attrs = &attr;
  config.numAttrs = 1;
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, RESIDENT, &config) != cudaSuccess) return 0;
  return clusters;
}

// Launches the resident grid for rows of `parts` parts; false where it cannot run.
bool LaunchResident(const float* input, float* output, int rows, int cols, int parts, bool vec) {
  static int cached_parts = 0, cached = 0;
  if (cached_parts != parts) {
    cached = ResidentClusters(parts);
    cudaGetLastError();
    cached_parts = parts;
  }
  if (cached <= 0) return false;
  const int clusters = cached < rows ? cached : rows;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(unsigned(clusters) * unsigned(parts));
  config.blockDim = dim3(512);
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = unsigned(parts);
  attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
  config.attrs = &attr;
  config.numAttrs = 1;
  if (cudaLaunchKernelEx(&config, RESIDENT, input, output, rows, cols, parts, clusters, vec) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return true;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  // float4 access needs every row on a 16-byte boundary: cols % 4 == 0 and aligned buffers.
  const bool vec = cols % 4 == 0 && (reinterpret_cast<uintptr_t>(input) & 15) == 0 &&
                   (reinterpret_cast<uintptr_t>(output) & 15) == 0;
  if (cols <= 128 * 4 * kVecs) {  // up to 4096: a block of 128 threads holds a row
    SoftmaxRows<128><<<rows, 128>>>(input, output, cols, 1, vec);
    return;
  }
  // A row over 16384 floats: a cluster of as many blocks as it needs, fewer (each then reading its
  // part twice, the second time mostly from L2) where the GPU allows fewer.
  static const int largest = [] {
    const int size = LargestCluster();
    cudaGetLastError();  // a query refused on the way leaves its error behind: not a failure of solve()
    return size;
  }();
  const int want = (cols + kHeld - 1) / kHeld;
  int parts = 1;
  while (parts < want && parts < largest) parts *= 2;  // a size LargestCluster found schedulable
  if (parts > 1 && parts >= want && LaunchResident(input, output, rows, cols, parts, vec)) return;
  if (parts == 1) {
    SoftmaxRows<512><<<rows, 512>>>(input, output, cols, 1, vec);
    return;
  }
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(unsigned(rows) * unsigned(parts));
  config.blockDim = dim3(512);
  cudaLaunchAttribute cluster[1];
  cluster[0].id = cudaLaunchAttributeClusterDimension;
  cluster[0].val.clusterDim.x = unsigned(parts);
  cluster[0].val.clusterDim.y = 1;
  cluster[0].val.clusterDim.z = 1;
  config.attrs = cluster;
  config.numAttrs = 1;
  if (cudaLaunchKernelEx(&config, SoftmaxRows<512>, input, output, cols, parts, vec) != cudaSuccess) {
    cudaGetLastError();  // refused (a GPU shared under MPS or MIG may run smaller clusters): no cluster
    SoftmaxRows<512><<<rows, 512>>>(input, output, cols, 1, vec);
  }
}

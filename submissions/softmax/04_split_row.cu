// SPDX-License-Identifier: MIT
// problem: softmax
// expect: AC
// One read and one write of every element, with a long row split over many blocks that are not
// scheduled together. 02 reads a long row twice (statistics, then output; at 256 x 262144 the
// second read misses L2), and 03's thread block clusters run only a few rows at a time. Here a row
// is cut into chunks of 4096 floats, one block of 256 threads each, every thread holding its 16
// floats in registers from a single load. A block reduces its chunk to a pair (m, s): the maximum
// and the sum of expf(x - m). Where a row has one chunk (cols <= 4096) it writes the output at once;
// otherwise it publishes its pair in global memory, counts itself done for the row, waits until
// every chunk of the row is, merges the row's pairs and writes its outputs from the registers.
// Waiting on other blocks is safe only if the blocks waited on can run: each block takes a ticket
// (an atomic counter) when it starts and works on chunk ticket % C of row ticket / C, so the
// tickets handed out are always a prefix; blocks still waiting can only belong to the last row
// begun, and with at least C blocks resident at once that row's remaining chunks find a free
// place (solve() asks the occupancy for 2C, else reads the row twice as 02 does). Pairs merge as in
// 02: m = max(m1, m2), s = s1 expf(m1 - m) + s2 expf(m2 - m); an output is
// expf(x - m_chunk) * expf(m_chunk - m_row) / s_row, one expf per element.
// What it teaches is also that one pass is not enough. Judged on an H200 (2026-12-02, every case
// AC): 132.3 us at 16384 x 4096 and 206.0 us at 256 x 262144, 57.5% of the read ceiling, slower
// there than 02's 61.6% despite reading each element once. Our reading: only the rows whose 64
// chunks are resident together are in flight, and every chunk of a row waits for the row's
// slowest before it writes, so loads and stores come in waves rather than as one stream. Nsight
// Compute agrees (2026-12-03, 256 x 262144): 58% of the roof, memory 52% busy, warps mostly
// waiting at the barrier while thread 0 waits for the row. Keeping the loads going through that
// wait did not help either: a resident grid (cooperative launch) copying each block's next chunk
// into shared memory with cp.async while it waits for its row took 229 us there (02: 204 us in
// the same harness; docs/results/h200-2026-12-03-catalog-5.md keeps its source).
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr float kNegBig = -3.402823466e38f;  // -FLT_MAX: below every input; expf(kNegBig - m) is 0
constexpr int kThreads = 256;
constexpr int kPerThread = 16;                      // floats held per thread (4 float4s)
constexpr int kChunk = kThreads * kPerThread;       // floats per block
constexpr int kWarps = kThreads / 32;

struct Stat {
  float m, s;
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

// The block's pair, in every thread (through shared memory).
__device__ __forceinline__ Stat BlockMerge(Stat t, Stat* warp_stats) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  t = WarpMerge(t);
  if (lane == 0) warp_stats[warp] = t;
  __syncthreads();
  t = lane < kWarps ? warp_stats[lane] : Stat{kNegBig, 0.0f};
  t = WarpMerge(t);
  __syncthreads();  // warp_stats is reused by the caller
  return t;
}

// Blocks of rows with one chunk each, or of rows split into `chunks` chunks. `counters` holds the
// ticket counter at [0] and each row's count of published chunks at [1 + row]; all zero at launch.
// `vec`: rows start on 16-byte boundaries (cols % 4 == 0 and aligned buffers), so float4 accesses.
__global__ void __launch_bounds__(kThreads) SplitRowSoftmax(const float* __restrict__ input,
                                                            float* __restrict__ output, int cols, int chunks,
                                                            bool vec, Stat* partials, int* counters) {
  __shared__ Stat warp_stats[kWarps];
  __shared__ int ticket;
  __shared__ Stat row_stat;
  if (threadIdx.x == 0) ticket = chunks == 1 ? int(blockIdx.x) : atomicAdd(&counters[0], 1);
  __syncthreads();
  const int row = ticket / chunks, chunk = ticket % chunks;
  const int begin = chunk * kChunk, end = min(cols, begin + kChunk);
  const float* x = input + size_t(row) * cols;
  float* y = output + size_t(row) * cols;

  // Every load issued before any is used: 16 floats per thread in flight.
  float v[kPerThread];
  if (vec) {
#pragma unroll
    for (int k = 0; k < kPerThread / 4; ++k) {
      const int j = begin + 4 * (threadIdx.x + k * kThreads);
      float4 q = j < end ? __ldcs(reinterpret_cast<const float4*>(x + j)) : make_float4(kNegBig, kNegBig, kNegBig, kNegBig);
      v[4 * k] = q.x, v[4 * k + 1] = q.y, v[4 * k + 2] = q.z, v[4 * k + 3] = q.w;
    }
  } else {
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      const int j = begin + threadIdx.x + k * kThreads;
      v[k] = j < end ? __ldcs(x + j) : kNegBig;
    }
  }
  float m = kNegBig;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) m = fmaxf(m, v[k]);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    v[k] = m == kNegBig ? 0.0f : expf(v[k] - m);  // padding: expf(-huge) = 0, or a thread with none of the row
    s += v[k];
  }
  const Stat chunk_stat = BlockMerge({m, s}, warp_stats);

  if (chunks > 1) {
    if (threadIdx.x == 0) {
      partials[size_t(row) * chunks + chunk] = chunk_stat;
      __threadfence();  // the pair is visible before the count says so
      atomicAdd(&counters[1 + row], 1);
      while (*reinterpret_cast<volatile int*>(&counters[1 + row]) < chunks) __nanosleep(100);
      __threadfence();
    }
    __syncthreads();
    if (threadIdx.x < 32) {
      Stat t = {kNegBig, 0.0f};
      for (int c = threadIdx.x; c < chunks; c += 32) {
        const volatile Stat* p = partials + size_t(row) * chunks + c;  // written by other blocks: not from L1
        t = Merge(t, {p->m, p->s});
      }
      t = WarpMerge(t);
      if (threadIdx.x == 0) row_stat = t;
    }
  } else if (threadIdx.x == 0) {
    row_stat = chunk_stat;
  }
  __syncthreads();
  // Each thread's values are expf(x - m) for its own m: scale by expf(m - m_row) / s_row.
  const float scale = m == kNegBig ? 0.0f : expf(m - row_stat.m) / row_stat.s;
  if (vec) {
#pragma unroll
    for (int k = 0; k < kPerThread / 4; ++k) {
      const int j = begin + 4 * (threadIdx.x + k * kThreads);
      if (j < end)
        __stcs(reinterpret_cast<float4*>(y + j),
               make_float4(v[4 * k] * scale, v[4 * k + 1] * scale, v[4 * k + 2] * scale, v[4 * k + 3] * scale));
    }
  } else {
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      const int j = begin + threadIdx.x + k * kThreads;
      if (j < end) __stcs(y + j, v[k] * scale);
    }
  }
}

// Rows longer than a block holds, where the split cannot run: a block per row reading it twice.
__global__ void __launch_bounds__(1024) TwoPassRowSoftmax(const float* __restrict__ input,
                                                          float* __restrict__ output, int cols) {
  __shared__ Stat warp_stats[32];
  const float* x = input + size_t(blockIdx.x) * cols;
  float* y = output + size_t(blockIdx.x) * cols;
  Stat t = {kNegBig, 0.0f};
  for (int j = threadIdx.x; j < cols; j += blockDim.x) t = Merge(t, {x[j], 1.0f});
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  t = WarpMerge(t);
  if (lane == 0) warp_stats[warp] = t;
  __syncthreads();
  t = lane < int(blockDim.x / 32) ? warp_stats[lane] : Stat{kNegBig, 0.0f};
  t = WarpMerge(t);
  const float inv = 1.0f / t.s;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) y[j] = expf(x[j] - t.m) * inv;
}

// Scratch kept across calls, grown when a call needs more.
template <class T>
T* Scratch(T*& p, size_t& have, size_t need) {
  if (need <= have) return p;
  if (p) cudaFree(p);
  p = nullptr;
  have = 0;
  if (cudaMalloc(&p, need * sizeof(T)) != cudaSuccess) {
    (void)cudaGetLastError();  // the fallback runs instead: leave no error behind for the caller to see
    p = nullptr;
    return nullptr;
  }
  have = need;
  return p;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  static Stat* partials = nullptr;
  static int* counters = nullptr;
  static size_t have_partials = 0, have_counters = 0;
  static int resident = -1;  // blocks of SplitRowSoftmax the GPU holds at once
  if (resident < 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, SplitRowSoftmax, kThreads, 0);
    resident = sms * per_sm;
  }
  const uintptr_t in = reinterpret_cast<uintptr_t>(input), out = reinterpret_cast<uintptr_t>(output);
  const bool vec = cols % 4 == 0 && (in & 15) == 0 && (out & 15) == 0;
  const int chunks = (cols + kChunk - 1) / kChunk;
  const size_t blocks = size_t(rows) * chunks;
  if (chunks == 1 && blocks <= 0x7fffffffu) {
    SplitRowSoftmax<<<unsigned(blocks), kThreads>>>(input, output, cols, 1, vec, nullptr, nullptr);
    return;
  }
  // A row's chunks wait for each other: all of them must fit on the GPU at once, with room to spare.
  Stat* p = chunks > 1 && 2 * chunks <= resident && blocks <= 0x7fffffffu ? Scratch(partials, have_partials, blocks)
                                                                          : nullptr;
  int* c = p ? Scratch(counters, have_counters, size_t(rows) + 1) : nullptr;
  if (!c) {
    TwoPassRowSoftmax<<<rows, 1024>>>(input, output, cols);
    return;
  }
  cudaMemsetAsync(c, 0, (size_t(rows) + 1) * sizeof(int));
  SplitRowSoftmax<<<unsigned(blocks), kThreads>>>(input, output, cols, chunks, vec, p, c);
}

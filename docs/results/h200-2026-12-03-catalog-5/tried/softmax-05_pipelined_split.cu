// SPDX-License-Identifier: MIT
// problem: softmax
// expect: AC
// One read and one write of every element with the reads never stopping: a long row split over
// blocks that stay resident, each loading its next chunk while it waits for the rest of its row.
// 03 holds a row in a cluster's registers and 04 in the registers of blocks taken by ticket; both
// stop loading while a row is being finished, so DRAM sees loads and stores in waves (57.5% of the
// read ceiling at 256 x 262144 for 04). Here the grid is as many blocks as the GPU holds at once
// (a cooperative launch, which refuses rather than deadlocks when they do not fit), and block b
// works on chunks b, b + G, b + 2G, ... of the rows cut into equal chunks of at most kChunk floats.
// A chunk is copied into shared memory with cp.async kStages - 1 steps before it is worked on, so
// the copy of the next one is in flight while this one waits for its row. Per chunk: its maximum m
// per thread, e = expf(x - m) written back in place and summed, the block's pair (m, s) published
// in global memory with a tag of this call; once every chunk of the row has published, the row's
// pair is merged from them (m = max(m1, m2), s = s1 expf(m1 - m) + s2 expf(m2 - m)) and every
// output is e * expf(m_thread - m_row) / s_row: one expf per element.
// Waiting is safe: chunk q is worked on after its block's earlier chunk q - G is done, which needs
// only the chunks of q - G's row, all of index below q when a row has at most G chunks (solve()
// checks it), so by induction on q every chunk publishes; every block is resident at once.
// Not yet measured on a GPU.
#include <cuda/atomic>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

#ifndef SOFTMAX_THREADS
#define SOFTMAX_THREADS 512
#endif
#ifndef SOFTMAX_CHUNK
#define SOFTMAX_CHUNK 8192
#endif
#ifndef SOFTMAX_STAGES
#define SOFTMAX_STAGES 2
#endif
#ifndef SOFTMAX_MAX_PER_SM
#define SOFTMAX_MAX_PER_SM 0
#endif

constexpr float kNegBig = -3.402823466e38f;  // -FLT_MAX: below every input; expf(kNegBig - m) is 0
constexpr int kThreads = SOFTMAX_THREADS;
constexpr int kChunk = SOFTMAX_CHUNK;          // floats of a row a block holds per step
constexpr int kStages = SOFTMAX_STAGES;        // chunks in shared memory: the one worked on, the ones loading
constexpr int kMaxPerSm = SOFTMAX_MAX_PER_SM;  // 0: as many blocks per SM as fit
constexpr int kWarps = kThreads / 32;
constexpr unsigned kBackoffNs = 32;
static_assert(kChunk % 4 == 0 && kStages >= 2, "chunks hold whole float4s; one stage loads while one works");

struct Stat {
  float m, s;  // the maximum, and the sum of expf(x - m)
};

__device__ __forceinline__ Stat Merge(Stat a, Stat b) {
  const float m = fmaxf(a.m, b.m);
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};  // an empty side has s = 0 and m = kNegBig
}

__device__ __forceinline__ Stat WarpMerge(Stat t) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1)
    t = Merge(t, {__shfl_xor_sync(0xffffffffu, t.m, off), __shfl_xor_sync(0xffffffffu, t.s, off)});
  return t;
}

// The block's pair, in every thread.
__device__ __forceinline__ Stat BlockMerge(Stat t, Stat* warp_stats) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  t = WarpMerge(t);
  if (lane == 0) warp_stats[warp] = t;
  __syncthreads();
  t = lane < kWarps ? warp_stats[lane] : Stat{kNegBig, 0.0f};
  t = WarpMerge(t);
  __syncthreads();  // warp_stats is free again for the next chunk
  return t;
}

struct Chunk {
  int row, begin, len;
};

__device__ __forceinline__ Chunk Locate(long long q, int parts, int chunk, int cols) {
  const int row = int(q / parts), begin = int(q % parts) * chunk;
  return {row, begin, min(chunk, cols - begin)};
}

// Starts the copy of chunk q (none past the last) into `buf` as one pipeline stage.
__device__ __forceinline__ void StartLoad(const float* in, long long q, long long total, int parts, int chunk,
                                          int cols, bool vec, float* buf) {
  if (q < total) {
    const Chunk c = Locate(q, parts, chunk, cols);
    const float* src = in + size_t(c.row) * cols + c.begin;
    if (vec) {
      for (int i = threadIdx.x; i < c.len / 4; i += kThreads) __pipeline_memcpy_async(buf + 4 * i, src + 4 * i, 16);
    } else {
      for (int i = threadIdx.x; i < c.len; i += kThreads) __pipeline_memcpy_async(buf + i, src + i, 4);
    }
  }
  __pipeline_commit();  // an empty stage past the end keeps the count of stages in flight right
}

// `vec`: rows start on 16-byte boundaries (cols % 4 == 0 and aligned buffers), so float4s.
// Chunk q's pair goes to pairs[q] and then its tag `epoch` to tags[q]; tags of earlier calls are smaller.
__global__ void __launch_bounds__(kThreads)
    PipelinedSoftmax(const float* __restrict__ in, float* __restrict__ out, int cols, int parts, int chunk,
                     long long total, float2* pairs, unsigned* tags, unsigned epoch, bool vec) {
  extern __shared__ float4 shared4[];
  float* const shared = reinterpret_cast<float*>(shared4);
  __shared__ Stat warp_stats[kWarps];
  __shared__ Stat row_stat;
  const long long grid = gridDim.x;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  for (int s = 0; s < kStages - 1; ++s)
    StartLoad(in, blockIdx.x + s * grid, total, parts, chunk, cols, vec, shared + s * kChunk);
  int stage = 0;
  for (long long q = blockIdx.x; q < total; q += grid) {
    // The buffer the last step freed takes the chunk kStages - 1 steps ahead.
    StartLoad(in, q + (kStages - 1) * grid, total, parts, chunk, cols, vec,
              shared + ((stage + kStages - 1) % kStages) * kChunk);
    __pipeline_wait_prior(kStages - 1);  // this thread's copies of chunk q have landed
    __syncthreads();                     // and every other thread's
    float* const buf = shared + stage * kChunk;
    float4* const buf4 = reinterpret_cast<float4*>(buf);
    const Chunk c = Locate(q, parts, chunk, cols);

    // This thread's elements: i = tid + k * kThreads (float4s or floats), the same in every pass.
    float m = kNegBig, s = 0.0f;
    if (vec) {
      for (int i = tid; i < c.len / 4; i += kThreads) {
        const float4 v = buf4[i];
        m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
      }
      for (int i = tid; i < c.len / 4; i += kThreads) {
        float4 v = buf4[i];
        v = make_float4(expf(v.x - m), expf(v.y - m), expf(v.z - m), expf(v.w - m));
        s += (v.x + v.y) + (v.z + v.w);
        buf4[i] = v;
      }
    } else {
      for (int i = tid; i < c.len; i += kThreads) m = fmaxf(m, buf[i]);
      for (int i = tid; i < c.len; i += kThreads) {
        const float e = expf(buf[i] - m);
        s += e;
        buf[i] = e;
      }
    }
    Stat row = BlockMerge({m, s}, warp_stats);
    if (parts > 1) {
      if (tid == 0) {
        pairs[q] = make_float2(row.m, row.s);
        cuda::atomic_ref<unsigned, cuda::thread_scope_device>(tags[q]).store(epoch, cuda::memory_order_release);
      }
      if (warp == 0) {
        const long long first = q - q % parts;  // the row's first chunk
        Stat all{kNegBig, 0.0f};
        for (int p = lane; p < parts; p += 32) {
          cuda::atomic_ref<unsigned, cuda::thread_scope_device> tag(tags[first + p]);
          while (tag.load(cuda::memory_order_acquire) != epoch) __nanosleep(kBackoffNs);
          const float2 pair = __ldcg(pairs + first + p);  // another block's: from L2, not a stale L1 line
          all = Merge(all, {pair.x, pair.y});
        }
        all = WarpMerge(all);
        if (lane == 0) row_stat = all;
      }
      __syncthreads();
      row = row_stat;
    }
    // e = expf(x - m_thread): scale by expf(m_thread - m_row) / s_row (0 for a thread with none).
    const float scale = m == kNegBig ? 0.0f : expf(m - row.m) / row.s;
    float* const y = out + size_t(c.row) * cols + c.begin;
    if (vec) {
      for (int i = tid; i < c.len / 4; i += kThreads) {
        const float4 e = buf4[i];
        __stcs(reinterpret_cast<float4*>(y) + i, make_float4(e.x * scale, e.y * scale, e.z * scale, e.w * scale));
      }
    } else {
      for (int i = tid; i < c.len; i += kThreads) __stcs(y + i, buf[i] * scale);
    }
    __syncthreads();  // the buffer is read out before the next step's copy into it starts
    stage = (stage + 1) % kStages;
  }
  __pipeline_wait_prior(0);  // nothing left in flight into shared memory when the block ends
}

// Where the resident grid cannot run (no cooperative launch, a row of more chunks than the grid):
// a block per row reading it twice.
__global__ void __launch_bounds__(1024) TwoPassRowSoftmax(const float* __restrict__ in, float* __restrict__ out,
                                                          int cols) {
  __shared__ Stat warp_stats[32];
  const float* x = in + size_t(blockIdx.x) * cols;
  float* y = out + size_t(blockIdx.x) * cols;
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

constexpr size_t kSharedBytes = size_t(kStages) * kChunk * sizeof(float);

// Blocks of PipelinedSoftmax the GPU holds at once; 0 where a cooperative launch is not possible.
int ResidentBlocks() {
  int device = 0, sms = 0, cooperative = 0, per_sm = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device) != cudaSuccess || !cooperative ||
      cudaFuncSetAttribute(PipelinedSoftmax, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSharedBytes)) !=
          cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, PipelinedSoftmax, kThreads, kSharedBytes) != cudaSuccess) {
    (void)cudaGetLastError();  // a refused query is no failure of solve(): the fallback runs
    return 0;
  }
  if (kMaxPerSm > 0 && per_sm > kMaxPerSm) per_sm = kMaxPerSm;
  return sms * per_sm;
}

// Scratch kept across calls, grown when a call needs more; tags start at 0, older than any call.
bool Grow(float2*& pairs, unsigned*& tags, size_t& have, size_t need) {
  if (need <= have) return true;
  cudaFree(pairs);
  cudaFree(tags);
  pairs = nullptr;
  tags = nullptr;
  have = 0;
  if (cudaMalloc(&pairs, need * sizeof(float2)) != cudaSuccess || cudaMalloc(&tags, need * sizeof(unsigned)) != cudaSuccess ||
      cudaMemset(tags, 0, need * sizeof(unsigned)) != cudaSuccess) {
    (void)cudaGetLastError();
    cudaFree(pairs);
    pairs = nullptr;
    return false;
  }
  have = need;
  return true;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  static const int resident = ResidentBlocks();
  static float2* pairs = nullptr;
  static unsigned* tags = nullptr;
  static size_t have = 0;
  static unsigned epoch = 0;
  if (rows <= 0 || cols <= 0) return;
  const uintptr_t in = reinterpret_cast<uintptr_t>(input), out = reinterpret_cast<uintptr_t>(output);
  bool vec = cols % 4 == 0 && (in & 15) == 0 && (out & 15) == 0;
  int parts = (cols + kChunk - 1) / kChunk;
  int chunk = ((cols + parts - 1) / parts + 3) & ~3;  // equal parts, whole float4s: <= kChunk
  long long total = static_cast<long long>(rows) * parts;
  if (resident < parts || (parts > 1 && !Grow(pairs, tags, have, size_t(total)))) {
    TwoPassRowSoftmax<<<rows, 1024>>>(input, output, cols);
    return;
  }
  ++epoch;
  const unsigned grid = unsigned(total < resident ? total : resident);
  void* args[] = {&input, &output, &cols, &parts, &chunk, &total, &pairs, &tags, &epoch, &vec};
  if (cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(PipelinedSoftmax), dim3(grid), dim3(kThreads), args,
                                  kSharedBytes, 0) != cudaSuccess) {
    (void)cudaGetLastError();  // refused (a GPU shared under MPS, say): the fallback is still right
    TwoPassRowSoftmax<<<rows, 1024>>>(input, output, cols);
  }
}

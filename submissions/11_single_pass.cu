// SPDX-License-Identifier: MIT
// Version 11 (single pass), beyond the article: one kernel launch, no cudaMemset, no float atomics.
// A grid that just fills the GPU (2 blocks of 512 threads per SM) sums the input with kLoads
// independent 16-byte loads in flight per thread, issued together even in the last, partial batch;
// each block writes one partial, and the last block to finish (found with an atomic ticket) adds
// the partials in a fixed order, in double, and writes output[0]. So the result is deterministic,
// the output is written (not accumulated), and no second launch or memset sits on the critical path.
// Interface: extern "C" void solve(const float* input, float* output, int N); device pointers.
#include <cuda/atomic>
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 512;
constexpr int kBlocksPerSm = 2;  // 2 x 512 threads: fewer blocks, so fewer partials and tickets
constexpr int kLoads = 4;        // independent 16-byte loads in flight per thread
constexpr int kMaxBlocks = 4096;
constexpr int kPartialsPerThread = kMaxBlocks / kThreads;

__device__ float g_partials[kMaxBlocks];
__device__ unsigned int g_ticket = 0;

template <typename T>
__device__ __forceinline__ T WarpSum(T v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// The block's sum, in thread 0. The shared array is reused, so callers separate two calls with a barrier.
template <typename T>
__device__ __forceinline__ T BlockSum(T v) {
  __shared__ T warps[kThreads / 32];
  v = WarpSum(v);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < kThreads / 32 ? warps[threadIdx.x] : T(0);
  return threadIdx.x < 32 ? WarpSum(v) : T(0);
}

__device__ __forceinline__ float Sum4(float4 v) { return (v.x + v.y) + (v.z + v.w); }

// A plain 16-byte load written as PTX. Measured on the H200 at N = 10^8: the same load written in
// C++ got the batch loop unrolled 5x by the compiler (93.1 us) or, with `#pragma unroll 1`, kept
// from unrolling altogether (94.8 us); as PTX the compiler leaves the loop alone and ptxas
// schedules it: 92.1-92.5 us. (The read-only path, __ldg, was no faster.)
__device__ __forceinline__ float4 Load(const float4* p) {
  float4 v;
  asm("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
  return v;
}

__global__ void __launch_bounds__(kThreads) SinglePass(const float* __restrict__ input, float* output, int n) {
  const float4* in4 = reinterpret_cast<const float4*>(input);
  const int n4 = n / 4;
  const int stride = gridDim.x * kThreads;
  float acc[kLoads] = {};
  for (int i = blockIdx.x * kThreads + threadIdx.x; i < n4; i += kLoads * stride) {
    float4 v[kLoads];
#pragma unroll
    for (int k = 0; k < kLoads; ++k) v[k] = i + k * stride < n4 ? Load(in4 + i + k * stride) : make_float4(0, 0, 0, 0);
#pragma unroll
    for (int k = 0; k < kLoads; ++k) acc[k] += Sum4(v[k]);
  }
  for (int t = 4 * n4 + blockIdx.x * kThreads + threadIdx.x; t < n; t += stride) acc[0] += input[t];  // the tail
  float sum = 0;
#pragma unroll
  for (int k = 0; k < kLoads; ++k) sum += acc[k];
  float block = BlockSum(sum);

  __shared__ bool last;
  if (threadIdx.x == 0) {
    g_partials[blockIdx.x] = block;
    // Release: the partial is visible before the ticket counts it; acquire: the last block sees them all.
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ticket(g_ticket);
    last = ticket.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  float p[kPartialsPerThread];  // every load issued before any is added
#pragma unroll
  for (int j = 0; j < kPartialsPerThread; ++j) {
    unsigned k = threadIdx.x + j * kThreads;
    p[j] = k < gridDim.x ? __ldcg(&g_partials[k]) : 0.0f;
  }
  double partials = 0;
#pragma unroll
  for (int j = 0; j < kPartialsPerThread; ++j) partials += double(p[j]);
  __syncthreads();
  double total = BlockSum(partials);
  if (threadIdx.x == 0) {
    output[0] = float(total);
    g_ticket = 0;  // ready for the next call (kernels on one stream do not overlap)
  }
}

int BlocksFor(int n) {
  static int sms = 0;
  if (sms == 0) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  int wanted = (n / 4 + kThreads - 1) / kThreads;  // at least one float4 per thread
  int full = sms > 0 ? sms * kBlocksPerSm : 264;
  int blocks = wanted < full ? wanted : full;
  return blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  if (N <= 0) return;
  SinglePass<<<BlocksFor(N), kThreads>>>(input, output, N);
}

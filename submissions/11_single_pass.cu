// SPDX-License-Identifier: MIT
// Version 11 (single pass), beyond the article: one kernel launch, no cudaMemset, no float atomics.
// Each block sums a grid-stride share with four independent 16-byte loads in flight per thread and
// writes one partial; the last block to finish (found with an atomic ticket) adds the partials in
// a fixed order, in double, and writes output[0]. So the result is deterministic, the output is
// written (not accumulated), and no second launch or memset sits on the critical path.
// Interface: extern "C" void solve(const float* input, float* output, int N); device pointers.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 2048;

__device__ float g_partials[kMaxBlocks];
__device__ unsigned int g_ticket = 0;

__device__ __forceinline__ float WarpSum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__device__ __forceinline__ float BlockSum(float v) {
  __shared__ float warps[kThreads / 32];
  v = WarpSum(v);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < kThreads / 32 ? warps[threadIdx.x] : 0.0f;
  return threadIdx.x < 32 ? WarpSum(v) : 0.0f;
}

__global__ void __launch_bounds__(kThreads) SinglePass(const float* __restrict__ input, float* output, int n) {
  const float4* in4 = reinterpret_cast<const float4*>(input);
  const int n4 = n / 4;
  const int stride = gridDim.x * kThreads;
  float a = 0, b = 0, c = 0, d = 0;
  int i = blockIdx.x * kThreads + threadIdx.x;
  for (; i + 3 * stride < n4; i += 4 * stride) {  // four loads issued before any is used
    float4 x = __ldg(in4 + i), y = __ldg(in4 + i + stride), z = __ldg(in4 + i + 2 * stride), w = __ldg(in4 + i + 3 * stride);
    a += (x.x + x.y) + (x.z + x.w);
    b += (y.x + y.y) + (y.z + y.w);
    c += (z.x + z.y) + (z.z + z.w);
    d += (w.x + w.y) + (w.z + w.w);
  }
  for (; i < n4; i += stride) {
    float4 x = __ldg(in4 + i);
    a += (x.x + x.y) + (x.z + x.w);
  }
  for (int t = 4 * n4 + blockIdx.x * kThreads + threadIdx.x; t < n; t += stride) b += input[t];  // the tail
  float block = BlockSum((a + b) + (c + d));

  __shared__ bool last;
  if (threadIdx.x == 0) {
    g_partials[blockIdx.x] = block;
    __threadfence();  // the partial is visible before the ticket says so
    last = atomicAdd(&g_ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double sum = 0;
  for (int k = threadIdx.x; k < gridDim.x; k += kThreads) sum += double(__ldcg(&g_partials[k]));
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  __shared__ double warp_sums[kThreads / 32];
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    double total = 0;
    for (int w = 0; w < kThreads / 32; ++w) total += warp_sums[w];
    output[0] = float(total);
    g_ticket = 0;  // ready for the next call (kernels on one stream do not overlap)
  }
}

int BlocksFor(int n) {
  static int sms = 0;
  if (sms == 0) cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  int wanted = (n / 4 + kThreads - 1) / kThreads;  // at least one float4 per thread
  int full = sms > 0 ? sms * 8 : 1024;             // 8 blocks of 256 per SM fill a Hopper SM
  int blocks = wanted < full ? wanted : full;
  return blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  if (N <= 0) return;
  SinglePass<<<BlocksFor(N), kThreads>>>(input, output, N);
}

// SPDX-License-Identifier: MIT
// Version 11 (single pass), beyond the article: one kernel launch, no cudaMemset, no float atomics.
// Every thread issues kLoads independent 16-byte loads before using any (a grid as large as the
// input, like version 10, so the last wave is short), its block sums them and adds the block's sum
// to a double-precision accumulator; the last block to finish (an atomic ticket) takes the total,
// resets the accumulator for the next call and writes output[0]. So the output is written (not
// accumulated into), nothing runs before or after the kernel, and the finish costs one exchange.
// The double total of float block sums is exact for integer data and within double rounding
// otherwise, so the float result is reproducible except when that total sits within 1e-16 of a
// float rounding boundary. Interface: extern "C" void solve(const float* input, float* output, int N).
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kLoads = 4;  // independent 16-byte loads in flight per thread

__device__ double g_total = 0;
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
  const int first = blockIdx.x * kThreads * kLoads + threadIdx.x;
  float4 v[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {  // every load issued before any is used
    int i = first + k * kThreads;
    v[k] = i < n4 ? __ldg(in4 + i) : make_float4(0.f, 0.f, 0.f, 0.f);
  }
  float sum = 0;
#pragma unroll
  for (int k = 0; k < kLoads; ++k) sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  if (blockIdx.x == 0 && threadIdx.x < n - 4 * n4) sum += input[4 * n4 + threadIdx.x];  // the last 0-3 floats
  float block = BlockSum(sum);

  __shared__ bool last;
  if (threadIdx.x == 0) {
    atomicAdd(&g_total, double(block));
    __threadfence();  // the addition is visible before the ticket says so
    last = atomicAdd(&g_ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    // Read and reset in one step; kernels on one stream do not overlap, so the next call starts at 0.
    double total = __longlong_as_double(atomicExch(reinterpret_cast<unsigned long long*>(&g_total), 0ull));
    g_ticket = 0;
    output[0] = float(total);
  }
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  if (N <= 0) return;
  int n4 = N / 4;
  int blocks = (n4 + kThreads * kLoads - 1) / (kThreads * kLoads);
  SinglePass<<<blocks > 0 ? blocks : 1, kThreads>>>(input, output, N);
}

// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: MV
// expect-detail: reads past the end
// A reduce-then-scan with two slips that only matter together. (1) The kernel that sums each
// block of 1024 elements loads without a bounds check, as if N were a multiple of 1024, so the
// last block also adds up to 1023 floats that lie past the end of the input. (2) The offset of
// block b is formed as (inclusive scan of the totals)[b] - total[b], which in exact arithmetic is
// the sum of the blocks before b, so the last block's bad total seems to cancel. It cancels when
// the memory after the input holds zeros; the judge puts NaN there (NaN - NaN = NaN) and then
// reruns with zeros: right with zeros, wrong with NaN is a read past the end (MV). Fix: guard the
// load (i < N ? input[i] : 0), and take the exclusive offset directly.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int kBlock = 1024;

__device__ float BlockSum(float v) {
  __shared__ float s[kBlock];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  return s[0];
}

// Phase 1: one total per block of 1024.
__global__ void BlockTotals(const float* in, float* totals) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  const float total = BlockSum(in[i]);  // BUG: no i < n check in the last, partial block
  if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

// Phase 2: inclusive scan of the totals in place, one block, 1024 at a time with a running carry.
__global__ void ScanTotals(float* totals, int count) {
  __shared__ float buf[2][kBlock];
  __shared__ float carry;
  const int tid = threadIdx.x;
  if (tid == 0) carry = 0.0f;
  for (int base = 0; base < count; base += kBlock) {
    const int i = base + tid;
    buf[0][tid] = i < count ? totals[i] : 0.0f;
    __syncthreads();
    int cur = 0;
    for (int offset = 1; offset < kBlock; offset <<= 1) {
      float v = buf[cur][tid];
      if (tid >= offset) v += buf[cur][tid - offset];
      buf[cur ^ 1][tid] = v;
      cur ^= 1;
      __syncthreads();
    }
    if (i < count) totals[i] = carry + buf[cur][tid];
    __syncthreads();
    if (tid == kBlock - 1) carry += buf[cur][tid];
    __syncthreads();
  }
}

// Phase 3: scan each block again (guarded) and add its offset.
__global__ void ScanWithOffsets(const float* in, float* out, const float* totals, const float* scanned, int n) {
  __shared__ float buf[2][kBlock];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * kBlock + tid;
  buf[0][tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  int cur = 0;
  for (int offset = 1; offset < kBlock; offset <<= 1) {
    float v = buf[cur][tid];
    if (tid >= offset) v += buf[cur][tid - offset];
    buf[cur ^ 1][tid] = v;
    cur ^= 1;
    __syncthreads();
  }
  // BUG (harmless alone): exclusive offset = inclusive - own, so a NaN own total poisons it.
  const float offset = scanned[blockIdx.x] - totals[blockIdx.x];
  if (i < n) out[i] = offset + buf[cur][tid];
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static float* scratch = nullptr;  // totals, then their inclusive scan
  static int capacity = 0;
  if (N <= 0) return;
  const int blocks = (N + kBlock - 1) / kBlock;
  if (blocks > capacity) {
    cudaFree(scratch);
    if (cudaMalloc(&scratch, 2 * size_t(blocks) * sizeof(float)) != cudaSuccess) {
      scratch = nullptr;
      capacity = 0;
      return;
    }
    capacity = blocks;
  }
  float* totals = scratch;
  float* scanned = scratch + capacity;
  BlockTotals<<<blocks, kBlock>>>(input, totals);
  cudaMemcpyAsync(scanned, totals, size_t(blocks) * sizeof(float), cudaMemcpyDeviceToDevice);
  ScanTotals<<<1, kBlock>>>(scanned, blocks);
  ScanWithOffsets<<<blocks, kBlock>>>(input, output, totals, scanned, N);
}

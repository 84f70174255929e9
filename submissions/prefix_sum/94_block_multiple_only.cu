// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: WA
// Right only when N is a multiple of 1024, as both published sizes (2^24, 2^26) are: the grid is
// N / 1024 blocks, rounded down, and the kernels have no bounds checks, so the last N % 1024
// elements are never written (they keep the judge's NaN) and N < 1024 launches nothing at all.
// The scan of the block totals is general (one block, 1024 totals at a time with a carry), which
// is why the published sizes pass. It fails the example, every edge size that is not a multiple
// of 1024, and the performance cases' twins, whose sizes are drawn anew for every run.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int kBlock = 1024;

// Hillis-Steele scan of the block's 1024 values in buf[0]; returns the buffer holding the result.
__device__ int ScanShared(float (*buf)[kBlock]) {
  int cur = 0;
  for (int offset = 1; offset < kBlock; offset <<= 1) {
    float v = buf[cur][threadIdx.x];
    if (threadIdx.x >= offset) v += buf[cur][threadIdx.x - offset];
    buf[cur ^ 1][threadIdx.x] = v;
    cur ^= 1;
    __syncthreads();
  }
  return cur;
}

__global__ void ScanBlocks(const float* in, float* out, float* totals) {
  __shared__ float buf[2][kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;  // BUG: assumes i < N, i.e. full blocks only
  buf[0][threadIdx.x] = in[i];
  __syncthreads();
  const int cur = ScanShared(buf);
  out[i] = buf[cur][threadIdx.x];
  if (threadIdx.x == kBlock - 1) totals[blockIdx.x] = buf[cur][threadIdx.x];
}

// Inclusive scan of `count` totals in place: one block, 1024 at a time, carrying the sum so far.
__global__ void ScanTotals(float* totals, int count) {
  __shared__ float buf[2][kBlock];
  __shared__ float carry;
  if (threadIdx.x == 0) carry = 0.0f;
  for (int base = 0; base < count; base += kBlock) {
    const int i = base + threadIdx.x;
    buf[0][threadIdx.x] = i < count ? totals[i] : 0.0f;
    __syncthreads();
    const int cur = ScanShared(buf);
    if (i < count) totals[i] = carry + buf[cur][threadIdx.x];
    __syncthreads();
    if (threadIdx.x == kBlock - 1) carry += buf[cur][threadIdx.x];
    __syncthreads();
  }
}

__global__ void AddOffsets(float* out, const float* scanned) {
  const int b = blockIdx.x + 1;
  out[b * kBlock + threadIdx.x] += scanned[b - 1];
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static float* totals = nullptr;
  static int capacity = 0;
  const int blocks = N / kBlock;  // BUG: rounds down; the tail is dropped
  if (blocks == 0) return;
  if (blocks > capacity) {
    cudaFree(totals);
    if (cudaMalloc(&totals, size_t(blocks) * sizeof(float)) != cudaSuccess) {
      totals = nullptr;
      capacity = 0;
      return;
    }
    capacity = blocks;
  }
  ScanBlocks<<<blocks, kBlock>>>(input, output, totals);
  if (blocks == 1) return;
  ScanTotals<<<1, kBlock>>>(totals, blocks);
  AddOffsets<<<blocks - 1, kBlock>>>(output, totals);
}

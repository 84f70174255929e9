// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: WA
// expect-detail: expected
// 00_three_phase's first phase alone: every block of 1024 scans its own elements correctly and
// nothing carries the total of the blocks before it, so the output restarts from zero at every
// block boundary (output[1024] = input[1024]). Right up to N = 1024, where there is one block;
// WA from N = 1025 on. A blocked scan needs the scan of the block totals and the offsets.
#include <cuda_runtime.h>

namespace {

constexpr int kBlock = 1024;

__global__ void ScanBlocks(const float* in, float* out, int n) {
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
  if (i < n) out[i] = buf[cur][tid];  // BUG: + the total of blocks 0..blockIdx.x-1 is missing
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  if (N <= 0) return;
  ScanBlocks<<<(N + kBlock - 1) / kBlock, kBlock>>>(input, output, N);
}

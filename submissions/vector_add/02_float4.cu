// SPDX-License-Identifier: MIT
// problem: vector_add
// The fast one: 16-byte loads and stores (float4), one vector of A, B and C per thread, so a warp
// moves 512 contiguous bytes of each array per instruction and a quarter as many threads do the
// work; then a scalar tail for the last N % 4 elements, done by the first threads of block 0.
// float4 access is safe because the buffers are 16-byte aligned (the statement says so;
// cudaMalloc gives 256). Measured on an H200 (2026-12-01, 4536 GB/s read ceiling): 371 us at
// 2^27, 4340 GB/s, 96% of the ceiling. Slower there: a grid-stride loop with 1, 2 or 4 vectors in
// flight per thread (388-420 us), and streaming hints (__ldcs / __stcs: +7%).
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    VectorAdd4(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
  const int n4 = N / 4;
  const int i = blockIdx.x * kThreads + threadIdx.x;  // < n4 + 256: fits an int
  if (i < n4) {
    const float4 a = reinterpret_cast<const float4*>(A)[i];
    const float4 b = reinterpret_cast<const float4*>(B)[i];
    reinterpret_cast<float4*>(C)[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
  // The tail: elements 4 * n4 .. N - 1 (at most 3), one per thread at the start of block 0.
  const int t = 4 * n4 + i;
  if (i < 4 && t < N) C[t] = A[t] + B[t];
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int n4 = N / 4;
  int blocks = (n4 + kThreads - 1) / kThreads;
  if (blocks < 1) blocks = 1;  // N < 4: one block for the tail alone
  VectorAdd4<<<blocks, kThreads>>>(A, B, C, N);
}

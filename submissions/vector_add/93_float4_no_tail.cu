// SPDX-License-Identifier: MIT
// problem: vector_add
// expect: WA
// expect-detail: NaN
// Right only when N % 4 == 0, as the performance sizes are: float4 loads and stores over N / 4
// vectors, with no scalar loop for the last N % 4 elements. Those stay as the judge's NaN poison
// on every size with a remainder (5, 31, 33, ..., 2^25 + 1), and when N < 4 nothing is written
// at all. The fix is the tail loop of 02_float4.cu.
#include <cuda_runtime.h>

__global__ void VectorAdd4(const float4* A, const float4* B, float4* C, int n4) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    const float4 a = A[i], b = B[i];
    C[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int n4 = N / 4;  // the bug: N % 4 elements are dropped
  const int threads = 256;
  const int blocks = (n4 + threads - 1) / threads;
  if (blocks > 0)
    VectorAdd4<<<blocks, threads>>>(reinterpret_cast<const float4*>(A), reinterpret_cast<const float4*>(B),
                                    reinterpret_cast<float4*>(C), n4);
}

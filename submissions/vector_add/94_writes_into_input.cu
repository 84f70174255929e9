// SPDX-License-Identifier: MIT
// problem: vector_add
// expect: MV
// expect-detail: modified its input
// Writes into an input: adds B into A in place (casting the const away) and copies A to C. C is
// right, but A and B are inputs: the judge checksums them after every call, and a changed input
// is a memory violation (a later call, or another user of A, would see the sums instead).
#include <cuda_runtime.h>

__global__ void AccumulateIntoA(float* A, const float* B, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) A[i] += B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  float* a = const_cast<float*>(A);  // the bug: A is const
  const int threads = 256;
  AccumulateIntoA<<<(N + threads - 1) / threads, threads>>>(a, B, N);
  cudaMemcpy(C, a, size_t(N) * sizeof(float), cudaMemcpyDeviceToDevice);
}

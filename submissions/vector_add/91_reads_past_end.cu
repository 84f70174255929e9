// SPDX-License-Identifier: MIT
// problem: vector_add
// expect: MV
// expect-detail: reads past the end of its input
// Reads past the end: a rounded-up grid with no bound check on the loads, so the extra threads of
// the last block load A[i] and B[i] for i >= N (up to 255 elements past the end). A stray load is
// visible only where its value reaches an output, so here the index is clamped instead of the
// thread bounded: C is zeroed and every thread adds its sum into C[min(i, N - 1)]. The judge's NaN
// after the inputs makes C[N - 1] NaN; its rerun with zeros there is right, which proves the read.
// (A read past the end whose value is never stored cannot be seen by any check of the outputs.)
#include <cuda_runtime.h>

__global__ void AddClamped(const float* A, const float* B, float* C, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float sum = A[i] + B[i];  // the bug: i may be >= N
  atomicAdd(&C[i < N ? i : N - 1], sum);
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  cudaMemset(C, 0, size_t(N) * sizeof(float));
  const int threads = 256;
  AddClamped<<<(N + threads - 1) / threads, threads>>>(A, B, C, N);
}

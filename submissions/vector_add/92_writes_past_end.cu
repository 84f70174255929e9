// SPDX-License-Identifier: MIT
// problem: vector_add
// expect: MV
// expect-detail: past the end of output buffer
// Writes past the end: the naive kernel without its bound check. With a rounded-up grid the extra
// threads of the last block (up to 255 of them whenever N is not a multiple of 256) load past the
// end of A and B and store past the end of C, onto the judge's guard bytes after the output, which
// it checks after every call: a memory violation, even though C[0..N-1] itself is right.
#include <cuda_runtime.h>

__global__ void VectorAddUnbounded(const float* A, const float* B, float* C, int N) {
  (void)N;  // the bug: no `if (i < N)`
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int threads = 256;
  VectorAddUnbounded<<<(N + threads - 1) / threads, threads>>>(A, B, C, N);
}

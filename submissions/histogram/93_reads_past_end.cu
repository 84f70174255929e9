// SPDX-License-Identifier: MIT
// problem: histogram
// expect: MV
// expect-detail: before the start of output buffer
// Reads past the end: 00's kernel without its bound check. With a rounded-up grid the extra
// threads of the last block read input[i] for i >= N, where the judge keeps guard bytes that read
// as -1, and increment histogram[-1]: the word just before the histogram, one of the judge's guard
// bytes around the output, checked after every call (MV). On real data past the end the index
// would be anything at all: a write to a random address. Whenever N is a multiple of 256 there is
// nothing past the end to read, and the case passes.
#include <cuda_runtime.h>

__global__ void HistogramUnbounded(const int* input, int* histogram, int N) {
  (void)N;  // the bug: no `if (i < N)`
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&histogram[input[i]], 1);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  cudaMemsetAsync(histogram, 0, size_t(num_bins) * sizeof(int));
  const int threads = 256;
  HistogramUnbounded<<<(N + threads - 1) / threads, threads>>>(input, histogram, N);
}

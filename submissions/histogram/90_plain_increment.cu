// SPDX-License-Identifier: MIT
// problem: histogram
// expect: WA
// A race: histogram[x]++ without an atomic. The increment is a load, an add and a store; threads
// that hit the same bin at once all load the same old count and store the same new one, so
// counts are lost. It is wrong as soon as two lanes of a warp share a bin (already in the
// example), and on the case with every element in bin 0 it counts a tiny fraction of 10^7.
#include <cuda_runtime.h>

__global__ void HistogramRacy(const int* input, int* histogram, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) histogram[input[i]]++;  // the bug: not atomic
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  cudaMemsetAsync(histogram, 0, size_t(num_bins) * sizeof(int));
  const int threads = 256;
  HistogramRacy<<<(N + threads - 1) / threads, threads>>>(input, histogram, N);
}

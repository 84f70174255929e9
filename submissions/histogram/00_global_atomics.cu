// SPDX-License-Identifier: MIT
// problem: histogram
// The baseline: clear the histogram (the judge leaves -1 in every bin), then one thread per
// element does atomicAdd(&histogram[input[i]], 1) in global memory. Correct for every input; its
// speed depends on the data: uniform values spread the atomics over many addresses, but when 90%
// of the elements fall into one bin those atomics all queue on one address in L2. Measured on an
// H200 (2026-12-01), N = 5e7: 2.4 ms with 4096 bins, 12.9 ms with 256, 34.9 ms with 90% in one
// bin, against 56 us for 02_fast.cu.
#include <cuda_runtime.h>

__global__ void HistogramGlobal(const int* input, int* histogram, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) atomicAdd(&histogram[input[i]], 1);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  cudaMemsetAsync(histogram, 0, size_t(num_bins) * sizeof(int));
  const int threads = 256;
  HistogramGlobal<<<(N + threads - 1) / threads, threads>>>(input, histogram, N);
}

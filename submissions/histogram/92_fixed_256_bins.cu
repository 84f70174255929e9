// SPDX-License-Identifier: MIT
// problem: histogram
// expect: MV
// expect-detail: past the end of output buffer
// Right only for 256 bins: 01's privatized histogram with num_bins hard-coded as 256 (clear 256
// bins, count into 256 shared counters, merge 256 bins). With fewer bins its cudaMemset clears
// past the end of the histogram, onto the judge's guard bytes (MV, the verdict that outranks the
// rest); with more, bins 256 and up are never cleared or counted (WA). Values of 256 and up are
// skipped rather than counted out of bounds in shared memory, so the failure is a clean one.
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kBins = 256;  // the bug: num_bins assumed

__global__ void __launch_bounds__(kThreads) Histogram256(const int* input, int* histogram, int N) {
  __shared__ int local[kBins];
  local[threadIdx.x] = 0;
  __syncthreads();
  const int stride = gridDim.x * kThreads;
  for (int i = blockIdx.x * kThreads + threadIdx.x; i < N; i += stride) {
    const int x = input[i];
    if (x < kBins) atomicAdd(&local[x], 1);
  }
  __syncthreads();
  if (local[threadIdx.x] != 0) atomicAdd(&histogram[threadIdx.x], local[threadIdx.x]);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  (void)num_bins;
  cudaMemsetAsync(histogram, 0, kBins * sizeof(int));
  int blocks = (N + kThreads - 1) / kThreads;
  if (blocks > 1024) blocks = 1024;
  Histogram256<<<blocks, kThreads>>>(input, histogram, N);
}

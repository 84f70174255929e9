// SPDX-License-Identifier: MIT
// problem: histogram
// expect: WA
// expect-detail: passes only when the output starts at zero
// Never clears the histogram: the atomics of 00_global_atomics.cu, added to whatever the bins
// held. The judge fills them with -1 before every call, so each bin comes out one short and an
// empty bin stays -1. (On a judge that hands out zeroed memory this passes by luck, and fails on
// the second call of any real program, which reuses the buffer.) The judge reruns it with a zeroed
// histogram, sees it pass, and says so.
#include <cuda_runtime.h>

__global__ void HistogramGlobal(const int* input, int* histogram, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) atomicAdd(&histogram[input[i]], 1);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  (void)num_bins;  // the bug: no cudaMemset(histogram, 0, num_bins * sizeof(int))
  const int threads = 256;
  HistogramGlobal<<<(N + threads - 1) / threads, threads>>>(input, histogram, N);
}

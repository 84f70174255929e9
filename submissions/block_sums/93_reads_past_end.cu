// SPDX-License-Identifier: MIT
// problem: block_sums
// expect: MV
// expect-detail: reads past the end
// One thread per input in blocks of 1024 threads (4 groups per block), warp shuffles, and one
// atomicAdd per warp into its group's sum. Two slips: the grid is rounded up to whole blocks of
// 1024 and the load has no bounds check, so when N / 256 is not a multiple of 4 the last block's
// surplus threads read up to 768 ints past the end of the input; and instead of returning, those
// threads clamp their group index to the last group "to stay inside the output", so what they
// read is added to the last group's sum. With zeros after the input that adds nothing; the judge
// puts -1s there (0xFFFFFFFF) and then reruns with zeros: right with zeros and wrong with -1s is
// a read past the end (MV). Fix: if (i >= N) return; before the load.
#include <cuda_runtime.h>

#define GROUP 256
#define THREADS 1024

__global__ void warp_atomic_sums(const int* d_input, int* d_output, int groups) {
    int i = blockIdx.x * THREADS + threadIdx.x;
    int x = d_input[i];                // BUG: no i < N check in the last block
    for (int d = 16; d > 0; d >>= 1) x += __shfl_down_sync(0xffffffffu, x, d);
    int group = min(i / GROUP, groups - 1);  // BUG: clamped instead of skipped
    if ((threadIdx.x & 31) == 0) atomicAdd(&d_output[group], x);
}

extern "C" void solve(int* input, int* output, int N) {
    int groups = N / GROUP;
    cudaMemsetAsync(output, 0, size_t(groups) * sizeof(int));
    warp_atomic_sums<<<(N + THREADS - 1) / THREADS, THREADS>>>(input, output, groups);
}

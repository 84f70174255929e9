// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: AC
// The yardstick, not a solution (the statement asks for a hand-written scan):
// cub::DeviceScan::InclusiveSum, the CUDA Toolkit's own single-pass decoupled look-back scan. Its
// temporary storage is allocated on the first call and kept in a static (grown when a larger N
// needs more), so no allocation happens inside the timed calls after the first.
// Measured on an H200 (throwaway harness: L2 flushed, CUDA events, median of 20 calls): 0.68-0.69 ms
// at N = 2^28 (3.09-3.15 TB/s counting 8 bytes per element), 0.18 ms at 2^26.
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

extern "C" void solve(const float* input, float* output, int N) {
  static void* scratch = nullptr;
  static size_t scratch_bytes = 0;
  if (N <= 0) return;
  size_t needed = 0;
  cub::DeviceScan::InclusiveSum(nullptr, needed, input, output, N);
  if (needed > scratch_bytes) {
    cudaFree(scratch);
    if (cudaMalloc(&scratch, needed) != cudaSuccess) {
      scratch = nullptr;
      scratch_bytes = 0;
      return;
    }
    scratch_bytes = needed;
  }
  cub::DeviceScan::InclusiveSum(scratch, scratch_bytes, input, output, N);
}

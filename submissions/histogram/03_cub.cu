// SPDX-License-Identifier: MIT
// problem: histogram
// expect: AC
// The yardstick, not a solution (the statement asks for a hand-written histogram):
// cub::DeviceHistogram::HistogramEven from the CUDA Toolkit, with num_bins + 1 levels evenly spaced
// from 0 to num_bins, so value v counts in bin v. CUB privatizes per block in shared memory as 01
// and 02 do, and zeroes the counts itself. Its scratch space is sized on the first call and kept
// (grown for a larger N) so that the timed calls allocate nothing. It shows how near the read
// ceiling a tuned library gets on this GPU, next to 02 (78-81% on the H200). H200 (2026-12-02,
// docs/results/h200-2026-12-02-catalog-3.md): 123.7 us at N = 50M with 256 bins (35% of the read
// ceiling), 552.6 us with 4096 bins (7.8%): well behind 02. Nsight Compute: its sweep kernel is
// instruction-bound (SMs 64% busy) with 71% of its shared-memory wavefronts replayed by conflicts.
#include <cuda_runtime.h>
#include <cub/device/device_histogram.cuh>

namespace {

// Device scratch kept across calls; Reserve grows it (false when the GPU has no room).
struct Scratch {
  void* data = nullptr;
  size_t bytes = 0;
  bool Reserve(size_t want) {
    if (want <= bytes) return true;
    cudaFree(data);
    bytes = cudaMalloc(&data, want) == cudaSuccess ? want : 0;
    if (bytes == 0) data = nullptr;
    return bytes != 0;
  }
};

}  // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  static Scratch scratch;
  size_t want = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, want, input, histogram, num_bins + 1, 0, num_bins, N);
  if (!scratch.Reserve(want)) return;  // the output stays poisoned: wrong, never a crash
  cub::DeviceHistogram::HistogramEven(scratch.data, scratch.bytes, input, histogram, num_bins + 1, 0, num_bins, N);
}

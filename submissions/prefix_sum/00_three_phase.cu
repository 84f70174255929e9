// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: AC
// The plain blocked scan, in three phases: (1) each block of 1024 threads scans its 1024 elements
// in shared memory (Hillis-Steele: log2(1024) = 10 rounds, double-buffered so no thread reads a
// value another thread is overwriting) and writes its total to a scratch array; (2) the totals are
// scanned the same way, recursively (2^28 elements: 262,144 totals, then 256, then one block);
// (3) block b >= 1 adds the scanned total of blocks 0..b-1 to its elements. Every output is a short
// chain of additions, far inside the error model. It moves 16 bytes per element (read the input,
// write the output, read and write it again to add the offsets): the ladder's slow, simple rung.
// Measured on an H200 (throwaway harness: L2 flushed, CUDA events, median of 20 calls): 2.69 ms at
// N = 2^28 (0.80 TB/s counting 8 bytes per element), 0.68 ms at 2^26.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int kBlock = 1024;  // threads per block = elements per block

// Phase 1: scans elements [1024 b, 1024 b + 1024) of `in` into `out`; the block's total goes to
// sums[b] when sums is given. `in` may equal `out` (each block reads all its elements first).
__global__ void ScanBlocks(const float* in, float* out, float* sums, int n) {
  __shared__ float buf[2][kBlock];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * kBlock + tid;  // < 2^28 + 1024: fits an int
  buf[0][tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  int cur = 0;
  for (int offset = 1; offset < kBlock; offset <<= 1) {
    float v = buf[cur][tid];
    if (tid >= offset) v += buf[cur][tid - offset];
    buf[cur ^ 1][tid] = v;
    cur ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = buf[cur][tid];
  if (sums != nullptr && tid == kBlock - 1) sums[blockIdx.x] = buf[cur][tid];
}

// Phase 3: block b + 1 adds scanned_sums[b], the total of blocks 0..b.
__global__ void AddOffsets(float* out, const float* scanned_sums, int n) {
  const int b = blockIdx.x + 1;
  const int i = b * kBlock + threadIdx.x;
  if (i < n) out[i] += scanned_sums[b - 1];
}

int BlocksFor(int n) { return (n + kBlock - 1) / kBlock; }

// Floats of scratch the recursion needs for n elements: one total per block, at every level.
size_t ScratchFor(int n) {
  int blocks = BlocksFor(n);
  return blocks == 1 ? 0 : size_t(blocks) + ScratchFor(blocks);
}

void Scan(const float* in, float* out, int n, float* scratch) {
  const int blocks = BlocksFor(n);
  if (blocks == 1) {
    ScanBlocks<<<1, kBlock>>>(in, out, nullptr, n);
    return;
  }
  float* sums = scratch;
  ScanBlocks<<<blocks, kBlock>>>(in, out, sums, n);
  Scan(sums, sums, blocks, scratch + blocks);  // in place; the next level's totals go after these
  AddOffsets<<<blocks - 1, kBlock>>>(out, sums, n);
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static float* scratch = nullptr;  // kept between calls; grown when a larger N needs more
  static size_t capacity = 0;
  if (N <= 0) return;
  const size_t needed = ScratchFor(N);
  if (needed > capacity) {
    cudaFree(scratch);
    if (cudaMalloc(&scratch, needed * sizeof(float)) != cudaSuccess) {
      scratch = nullptr;
      capacity = 0;
      return;
    }
    capacity = needed;
  }
  Scan(input, output, N, scratch);
}

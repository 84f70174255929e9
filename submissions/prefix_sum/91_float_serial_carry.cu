// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: WA
// expect-detail: expected
// Parallel, and wrong only in its precision. Each thread owns a run of 8192 consecutive elements:
// (1) it sums its run; (2) one block scans the run totals (correctly, in short pieces); (3) each
// thread starts a float running sum AT ITS CARRY and adds its elements one by one. That last
// serial float accumulation is the bug: adding a small term to a large running value rounds by up
// to half an ulp of the running value every time. On 20,000,000 ones the runs past 2^24 stall
// completely (16,777,216 + 1 is a tie that rounds back), up to 8,192 short at a run's end where
// the error model allows 4,100-5,300; after 256 x 1000.0 each 0.01 is rounded to 1/64. A correct
// scan keeps the serial runs short and adds the carry once, at the end: carry + local prefix.
// (Chaining block totals in float, as look-back scans do, is fine: the totals are large terms.)
#include <cuda_runtime.h>

namespace {

constexpr int kRun = 8192;        // elements per thread
constexpr int kThreads = 256;
constexpr int kScanThreads = 1024;  // phase 2: one block; 2^28 / 8192 = 32,768 runs = 32 per thread
constexpr int kRunsPerScanThread = 32;

__global__ void RunTotals(const float* in, float* totals, int n, int runs) {
  const int r = blockIdx.x * kThreads + threadIdx.x;
  if (r >= runs) return;
  const int begin = r * kRun, end = min(begin + kRun, n);  // < 2^28 + 8192
  float s = 0.0f;
  for (int i = begin; i < end; ++i) s += in[i];
  totals[r] = s;
}

// Replaces totals[r] by the sum of totals[0..r-1] (one block: 32 runs per thread, then a
// Hillis-Steele scan of the 1024 thread totals).
__global__ void __launch_bounds__(kScanThreads) ExclusiveScanTotals(float* totals, int runs) {
  __shared__ float buf[2][kScanThreads];
  const int t = threadIdx.x;
  const int first = t * kRunsPerScanThread;
  float mine = 0.0f;
  for (int k = 0; k < kRunsPerScanThread; ++k)
    if (first + k < runs) mine += totals[first + k];
  buf[0][t] = mine;
  __syncthreads();
  int cur = 0;
  for (int offset = 1; offset < kScanThreads; offset <<= 1) {
    float v = buf[cur][t];
    if (t >= offset) v += buf[cur][t - offset];
    buf[cur ^ 1][t] = v;
    cur ^= 1;
    __syncthreads();
  }
  float carry = t == 0 ? 0.0f : buf[cur][t - 1];  // the total of the runs before this thread's
  for (int k = 0; k < kRunsPerScanThread; ++k) {
    if (first + k >= runs) break;
    const float own = totals[first + k];
    totals[first + k] = carry;
    carry += own;
  }
}

__global__ void ScanRuns(const float* in, float* out, const float* carries, int n, int runs) {
  const int r = blockIdx.x * kThreads + threadIdx.x;
  if (r >= runs) return;
  const int begin = r * kRun, end = min(begin + kRun, n);
  float running = carries[r];  // BUG: the carry goes in first, then thousands of small additions
  for (int i = begin; i < end; ++i) {
    running += in[i];
    out[i] = running;
  }
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static float* totals = nullptr;
  static int capacity = 0;
  if (N <= 0) return;
  const int runs = (N + kRun - 1) / kRun;  // at most 32,768
  if (runs > capacity) {
    cudaFree(totals);
    if (cudaMalloc(&totals, size_t(runs) * sizeof(float)) != cudaSuccess) {
      totals = nullptr;
      capacity = 0;
      return;
    }
    capacity = runs;
  }
  const int blocks = (runs + kThreads - 1) / kThreads;
  RunTotals<<<blocks, kThreads>>>(input, totals, N, runs);
  ExclusiveScanTotals<<<1, kScanThreads>>>(totals, runs);
  ScanRuns<<<blocks, kThreads>>>(input, output, totals, N, runs);
}

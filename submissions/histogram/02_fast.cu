// SPDX-License-Identifier: MIT
// problem: histogram
// The fast one: privatized like 01, read as int4 (4 loads of 16 bytes in flight per thread) by
// 512-thread blocks over a grid that just fills the GPU. Each block keeps R copies of its histogram
// in shared memory, interleaved (bin b, copy r at s[b * R + r]), lane l counting into copy l % R:
// with R = 32 (up to 768 bins) 32 lanes on one bin touch 32 words in 32 banks; R shrinks to fit
// 96 KiB (4096 bins: R = 4). Then one global atomic per nonzero bin, after a cudaMemsetAsync.
// H200, N = 5e7 (2026-12-01): 56 us (78% of the 4536 GB/s read ceiling) uniform or 90-100% in one
// bin, 61 us at 4096 bins; 01 takes 94 us. R = 1 measured the same there (its shared atomics barely
// slow down on one address): the gain is the loads; the copies help GPUs whose atomics serialize.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 512;
constexpr int kMaxSharedBytes = 96 * 1024;  // two blocks per SM fit in the H200's 228 KiB
constexpr int kInFlight = 4;                // independent int4 loads per thread and step

// The largest power of two R <= 32 whose R copies of num_bins counters fit kMaxSharedBytes.
int CopiesFor(int num_bins) {
  int r = 32;
  while (r > 1 && size_t(r) * size_t(num_bins) * sizeof(int) > size_t(kMaxSharedBytes)) r /= 2;
  return r;
}

template <int R>
__device__ __forceinline__ void Count(int* s, int lane_copy, int x) {
  atomicAdd(&s[x * R + lane_copy], 1);
}

template <int R>
__global__ void __launch_bounds__(kThreads)
    HistogramReplicated(const int* __restrict__ input, int* __restrict__ histogram, int N, int num_bins) {
  extern __shared__ int s[];  // num_bins * R counters
  for (int k = threadIdx.x; k < num_bins * R; k += kThreads) s[k] = 0;
  __syncthreads();
  const int copy = threadIdx.x % R;  // = lane % R, since R divides 32
  const int n4 = N / 4;
  const int4* in4 = reinterpret_cast<const int4*>(input);
  const int stride = gridDim.x * kThreads;
  int i = blockIdx.x * kThreads + threadIdx.x;
  for (; i + (kInFlight - 1) * stride < n4; i += kInFlight * stride) {
    int4 v[kInFlight];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) v[k] = __ldcs(in4 + i + k * stride);
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) {
      Count<R>(s, copy, v[k].x);
      Count<R>(s, copy, v[k].y);
      Count<R>(s, copy, v[k].z);
      Count<R>(s, copy, v[k].w);
    }
  }
  for (; i < n4; i += stride) {
    const int4 v = __ldcs(in4 + i);
    Count<R>(s, copy, v.x);
    Count<R>(s, copy, v.y);
    Count<R>(s, copy, v.z);
    Count<R>(s, copy, v.w);
  }
  const int t = 4 * n4 + blockIdx.x * kThreads + threadIdx.x;  // the last N % 4 elements
  if (t < N) Count<R>(s, copy, input[t]);
  __syncthreads();
  for (int b = threadIdx.x; b < num_bins; b += kThreads) {
    int total = 0;
#pragma unroll
    for (int k = 0; k < R; ++k) total += s[b * R + ((k + b) & (R - 1))];  // rotated: no bank conflicts
    if (total != 0) atomicAdd(&histogram[b], total);
  }
}

template <int R>
void Launch(const int* input, int* histogram, int N, int num_bins) {
  static int grid = 0;  // the blocks that are resident at once, found once per copy count
  const size_t smem = size_t(num_bins) * R * sizeof(int);
  if (grid == 0) {
    cudaFuncSetAttribute(HistogramReplicated<R>, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxSharedBytes);
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    // Occupancy at the largest histogram this R is used for: the grid never oversubscribes.
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, HistogramReplicated<R>, kThreads, kMaxSharedBytes);
    grid = (sms > 0 ? sms : 132) * (per_sm > 0 ? per_sm : 1);
  }
  int blocks = (N / 4 + kThreads - 1) / kThreads;
  blocks = blocks < 1 ? 1 : (blocks > grid ? grid : blocks);
  HistogramReplicated<R><<<blocks, kThreads, smem>>>(input, histogram, N, num_bins);
}

}  // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  cudaMemsetAsync(histogram, 0, size_t(num_bins) * sizeof(int));
  switch (CopiesFor(num_bins)) {
    case 32: Launch<32>(input, histogram, N, num_bins); break;
    case 16: Launch<16>(input, histogram, N, num_bins); break;
    case 8: Launch<8>(input, histogram, N, num_bins); break;
    case 4: Launch<4>(input, histogram, N, num_bins); break;
    case 2: Launch<2>(input, histogram, N, num_bins); break;
    default: Launch<1>(input, histogram, N, num_bins); break;
  }
}

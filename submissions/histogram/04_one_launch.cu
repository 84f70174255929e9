// SPDX-License-Identifier: MIT
// problem: histogram
// expect: AC
// One launch, the loads always in flight: what is left of 02_fast.cu's time once its kernel reads
// near the roof. At N = 5e7 (200 MB, about 44 us at the read ceiling) every microsecond outside
// the streaming loop costs 2%, and 02 spends several there: a cudaMemsetAsync launched ahead of
// the kernel, warps that stop loading while they count, a block that waits for its shared
// histogram to be zeroed before its first load, and a merge that re-reads each block's copies
// with 4-way bank conflicts at 4096 bins. Here:
// - No memset. The first block to start (an atomic ticket) zeroes the histogram and publishes the
//   call's epoch (a number the host counts up, so no flag needs resetting); every block adds its
//   counts only once it sees that epoch, which by then (45 us later) costs one load.
// - Loads never stop: each thread counts one tile of kLoads int4 while the next tile's loads are
//   in flight (two register sets, the loop unrolled by two so nothing is copied).
// - Each block gets one contiguous range of equal size (to 512 bytes), so blocks end together; the
//   last block also takes the few elements left over, and a misaligned start is counted apart.
// - The first two tiles are requested before the shared histogram is zeroed, hiding that behind
//   the memory latency; the merge reads the R copies of a bin in a rotation that keeps the 32
//   lanes of a warp in 32 banks for every R.
// - One block of 1024 threads per SM instead of two of 512: the same loads in flight, half the
//   partial histograms to add into the global one at the end.
// R copies of the histogram per block, interleaved as in 02 (bin b, copy r at s[b * R + r], lane l
// counting into copy l % R): 32 at 256 bins (32 lanes on one hot bin hit 32 banks); at 4096 bins
// kMaxSharedBytes decides (64 KiB: R = 4), more copies trading fewer conflicts in the loop for a
// longer merge at the end.
// Measured on an H200 (2026-12-02, judged by `judge check-problem histogram`, L2 flushed before each
// call, medians): N = 5e7, 256 bins 49.6 us, 4096 bins 50.9 us (86.5% of the 4539 GB/s read
// ceiling; 02_fast 54.1 us, 81.5%, in the same run). kLoads swept at 4096 bins with the judge's
// performance cases: 4 loads 52.3 us, 6 loads 51.2 us; kMaxSharedBytes 32 KiB, 96 KiB and
// 128 KiB (R = 2, 4, 8) within 0.5 us of 64 KiB. Under ncu (with 4 loads) the kernel moves
// 3854 GB/s at 4096 bins (85% of the roof) and solve() spends nothing outside it.
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstdint>

// The knobs: each alone on its line with nothing after it, so a script can sweep them with
// sed 's/^constexpr int kLoads = .*;$/constexpr int kLoads = 8;/'.
// Threads per block: a multiple of 32, at most 1024.
constexpr int kThreads = 1024;
// Blocks resident per SM (the register cap: 65536 / (kThreads * kBlocksPerSm) per thread).
constexpr int kBlocksPerSm = 1;
// int4 loads per thread and tile. Two tiles are held, so 8 * kLoads registers are data.
constexpr int kLoads = 6;
// The most copies of the histogram per block: a power of two, at most 32.
constexpr int kMaxCopies = 32;
// The most shared memory per block for the copies: sets R at 4096 bins (65536: R = 4).
constexpr int kMaxSharedBytes = 65536;
// The load: 0 ld.global.nc, 1 ld.global.cs (evict-first, as 02), 2 ld.global.nc with 256-byte L2 prefetch.
constexpr int kLoadKind = 1;

namespace {

constexpr int kMaxBins = 4096;  // the problem's limit: the merge covers no bin past it
constexpr int kBinsPerThread = (kMaxBins + kThreads - 1) / kThreads;  // in the merge
constexpr int kTile = kThreads * kLoads;                              // int4 per block and tile
constexpr int kUnit = 32;  // a block's range is a multiple of 32 int4 (512 bytes): whole lines
static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, one block");
static_assert(kMaxCopies >= 1 && kMaxCopies <= 32 && (kMaxCopies & (kMaxCopies - 1)) == 0, "R divides 32");

// The epoch of the call whose histogram has been zeroed. Starts at 0; the host's first epoch is 1
// and each call's is new, so a stale value never matches.
__device__ unsigned int g_zeroed_epoch = 0;
// Arrival tickets of the blocks of one call; back to 0 after each call.
__device__ unsigned int g_ticket = 0;

// Written as PTX (not __ldcs): the compiler then leaves the tile loop as written, two tiles deep,
// instead of unrolling it further (11_single_pass.cu saw that with C++ loads).
__device__ __forceinline__ int4 Load(const int4* p) {
  int4 v;
  if constexpr (kLoadKind == 0)
    asm("ld.global.nc.v4.s32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  else if constexpr (kLoadKind == 1)
    asm("ld.global.cs.v4.s32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  else
    asm("ld.global.nc.L2::256B.v4.s32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

// `mine` is this lane's copy, s + lane % R. Lanes on one address cost little (02 measured R = 1 no
// slower with every element in one bin); the copies are there to spread uniform values over the
// banks: 32 random bins of 256 land about 3 deep in the busiest bank with R = 1, 1 deep with R = 32.
template <int R>
__device__ __forceinline__ void Count(int* mine, int x) {
  atomicAdd(mine + x * R, 1);
}

template <int R>
__device__ __forceinline__ void Count4(int* mine, int4 v) {
  Count<R>(mine, v.x);
  Count<R>(mine, v.y);
  Count<R>(mine, v.z);
  Count<R>(mine, v.w);
}

// One tile of this thread: int4 number first + k * kThreads, those below hi.
__device__ __forceinline__ void LoadTile(int4 (&v)[kLoads], const int4* in4, int first, int hi) {
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    const int i = first + k * kThreads;
    v[k] = i < hi ? Load(in4 + i) : make_int4(0, 0, 0, 0);
  }
}

template <int R>
__device__ __forceinline__ void CountTile(int* mine, const int4 (&v)[kLoads], int first, int hi) {
#pragma unroll
  for (int k = 0; k < kLoads; ++k)
    if (first + k * kThreads < hi) Count4<R>(mine, v[k]);
}

template <int R>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    HistogramOneLaunch(const int* __restrict__ input, int* __restrict__ histogram, int N, int num_bins,
                       unsigned epoch) {
  extern __shared__ int s[];  // num_bins * R counters
  const int tid = threadIdx.x;
  const bool last_block = blockIdx.x == gridDim.x - 1;

  // The elements before the first 16-byte boundary (none for the judge's buffers), the int4 body,
  // then at most 3 elements after it.
  const int misaligned = int((16 - (reinterpret_cast<uintptr_t>(input) & 15)) & 15) / 4;
  const int head = misaligned < N ? misaligned : N;
  const int4* in4 = reinterpret_cast<const int4*>(input + head);
  const int n4 = (N - head) / 4;
  const int units = n4 / kUnit;
  const int lo = int(int64_t(units) * blockIdx.x / gridDim.x) * kUnit;
  const int hi = int(int64_t(units) * (blockIdx.x + 1) / gridDim.x) * kUnit;

  // The first two tiles and the leftovers are requested before anything else, so the zeroing
  // below and the barrier run while they travel.
  int4 a[kLoads], b[kLoads];
  LoadTile(a, in4, lo + tid, hi);
  LoadTile(b, in4, lo + kTile + tid, hi);
  int4 rest = make_int4(0, 0, 0, 0);
  int before = 0, after = 0;
  const int rest_i = units * kUnit + tid;   // < 32 int4 past the last unit
  const int after_i = head + 4 * n4 + tid;  // < 4 elements past the body
  const bool has_rest = last_block && rest_i < n4;
  const bool has_before = last_block && tid < head;
  const bool has_after = last_block && after_i < N;
  if (has_rest) rest = Load(in4 + rest_i);
  if (has_before) before = input[tid];
  if (has_after) after = input[after_i];

  // The first block to get here zeroes the histogram: it is running, and it waits for no other
  // block before it publishes the epoch, so the wait below can never deadlock, whatever the GPU
  // makes resident. atomicInc wraps to 0 after gridDim.x tickets: ready for the next call.
  unsigned ticket = 1;
  if (tid == 0) ticket = atomicInc(&g_ticket, gridDim.x - 1);

  for (int k = tid; k < num_bins * R; k += kThreads) s[k] = 0;
  __syncthreads();
  int* const mine = s + (tid & (R - 1));  // = lane % R: R divides 32 and kThreads
  cuda::atomic_ref<unsigned int, cuda::thread_scope_device> zeroed(g_zeroed_epoch);
  if (tid < 32 && __shfl_sync(0xffffffffu, ticket, 0) == 0) {
    // Warp 0 alone, so that no barrier waits for the ticket. Its stall (the ticket, then the
    // release's fence) overlaps the first tile's loads, which it would wait for anyway.
#pragma unroll 8
    for (int k = tid; k < num_bins; k += 32) histogram[k] = 0;
    __syncwarp();
    if (tid == 0) zeroed.store(epoch, cuda::memory_order_release);  // after all 32 lanes' zeros
  }
  if (has_rest) Count4<R>(mine, rest);
  if (has_before) Count<R>(mine, before);
  if (has_after) Count<R>(mine, after);

  // Tile t is counted while tile t + 1 loads, and reloaded with tile t + 2 as soon as it is
  // counted. The guards are false past hi, so the loop needs no separate last tile, and a block
  // with an odd number of tiles ends with an empty half.
  for (int t = lo; t < hi; t += 2 * kTile) {
    CountTile<R>(mine, a, t + tid, hi);
    LoadTile(a, in4, t + 2 * kTile + tid, hi);
    CountTile<R>(mine, b, t + kTile + tid, hi);
    LoadTile(b, in4, t + 3 * kTile + tid, hi);
  }

  // Asked for now, needed after the merge's reads: its latency hides behind them.
  unsigned seen = 0;
  if (tid == 0) seen = zeroed.load(cuda::memory_order_relaxed);
  __syncthreads();
  // Thread tid sums bins tid, tid + kThreads, ... Copy r of bin b is read at step
  // (r - (b * R) / 32) mod R: the 32 lanes of a warp then read 32 different banks at every step.
  int total[kBinsPerThread];
#pragma unroll
  for (int j = 0; j < kBinsPerThread; ++j) {
    const int bin = tid + j * kThreads;
    total[j] = 0;
    if (bin < num_bins) {
      const int* row = s + bin * R;
      const int shift = (bin * R) >> 5;
#pragma unroll
      for (int r = 0; r < R; ++r) total[j] += row[(r + shift) & (R - 1)];
    }
  }
  if (tid == 0) {
    while (seen != epoch) {  // only if the first block is still zeroing: normally seen already
      __nanosleep(256);
      seen = zeroed.load(cuda::memory_order_relaxed);
    }
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
  }
  __syncthreads();  // the acquire above now covers every thread's atomics below
#pragma unroll
  for (int j = 0; j < kBinsPerThread; ++j) {
    const int bin = tid + j * kThreads;
    if (bin < num_bins && total[j] != 0) atomicAdd(&histogram[bin], total[j]);
  }
}

struct Gpu {
  int sms = 132;
  int budget = 0;  // shared memory for one block's copies, in bytes
};

const Gpu& ThisGpu() {
  static Gpu gpu;
  static bool known = false;
  if (!known) {
    int device = 0, sms = 0, per_sm = 0, per_block = 0, reserved = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
    cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device);
    if (sms > 0) gpu.sms = sms;
    int budget = kMaxSharedBytes;
    if (per_block > 0 && per_block < budget) budget = per_block;
    if (per_sm > 0 && per_sm / kBlocksPerSm - reserved < budget) budget = per_sm / kBlocksPerSm - reserved;
    gpu.budget = budget > kMaxBins * 4 ? budget : kMaxBins * 4;  // one copy of the largest always fits
    known = true;
  }
  return gpu;
}

// The largest power of two R <= kMaxCopies whose R copies of num_bins counters fit the budget.
int CopiesFor(int num_bins, int budget) {
  int r = kMaxCopies;
  while (r > 1 && int64_t(r) * num_bins * 4 > budget) r /= 2;
  return r;
}

template <int R>
void Launch(const int* input, int* histogram, int N, int num_bins, unsigned epoch) {
  const Gpu& gpu = ThisGpu();
  static int per_sm = 0;  // blocks of this R resident per SM at the budget, found once
  if (per_sm == 0) {
    cudaFuncSetAttribute(HistogramOneLaunch<R>, cudaFuncAttributeMaxDynamicSharedMemorySize, gpu.budget);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, HistogramOneLaunch<R>, kThreads, gpu.budget);
    if (per_sm < 1) per_sm = 1;
    if (per_sm > kBlocksPerSm) per_sm = kBlocksPerSm;
  }
  // A grid that just fills the GPU (more would only queue); fewer blocks when N is small, so that
  // each gets at least a tile.
  const int resident = gpu.sms * per_sm;
  const int wanted = int((int64_t(N) / 4 + kTile - 1) / kTile);
  const int blocks = wanted < 1 ? 1 : (wanted < resident ? wanted : resident);
  HistogramOneLaunch<R><<<blocks, kThreads, size_t(num_bins) * R * sizeof(int)>>>(input, histogram, N, num_bins, epoch);
}

}  // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  static unsigned epoch = 0;  // the device's flag starts at 0: skip it
  if (++epoch == 0) epoch = 1;
  switch (CopiesFor(num_bins, ThisGpu().budget)) {
    case 32: Launch<32>(input, histogram, N, num_bins, epoch); break;
    case 16: Launch<16>(input, histogram, N, num_bins, epoch); break;
    case 8: Launch<8>(input, histogram, N, num_bins, epoch); break;
    case 4: Launch<4>(input, histogram, N, num_bins, epoch); break;
    case 2: Launch<2>(input, histogram, N, num_bins, epoch); break;
    default: Launch<1>(input, histogram, N, num_bins, epoch); break;
  }
}

// SPDX-License-Identifier: MIT
#pragma once
// The judge's own streaming kernels: the read-bandwidth ceiling and the read-only L2 flush.
#include <cstddef>

namespace judge {

struct CeilingSweep {
  double best_gbps = 0;
  int loads_in_flight = 0;  // of the best configuration
  int blocks_per_sm = 0;
  bool prefetch = false;  // loads ask the L2 for 256-byte prefetches
};

// Streams `bytes` through a read-only float4 kernel in a few shapes (16-byte loads in flight per
// thread x blocks per SM x L2 prefetch hint), `repeats` launches each after a warm-up; keeps the
// best. Each launch is timed like a judged call: stream held, minus the empty window `window_ms`.
// 0 on success, else a cudaError_t.
int DeviceReadBandwidth(size_t bytes, int repeats, double window_ms, CeilingSweep* result);

// The same for a copy (`bytes` read from one buffer and written to another; GB/s counts both), in
// a few shapes; and the FP32 rate of independent FMA chains on every SM (GFLOP/s, 2 per FMA).
int DeviceCopyBandwidth(size_t bytes, int repeats, double window_ms, CeilingSweep* result);
int DeviceFmaThroughput(int repeats, double window_ms, double* gflops);

// The read-only flush: a kernel that reads `bytes` of a buffer, launched without waiting: lines
// read are clean, so evicting them later costs the timed kernel nothing (a memset flush leaves the
// L2 full of dirty lines whose write-back lands inside the next timed call). Its shape, for a launch
// through the sealed driver table (driver_calls.h); its arguments are (const float4* buffer,
// size_t bytes / 16, float* sink), and `sink` receives practically nothing. 0 on success, else a
// cudaError_t.
int StreamReadLaunch(const void** kernel, unsigned* blocks, unsigned* threads);

}  // namespace judge

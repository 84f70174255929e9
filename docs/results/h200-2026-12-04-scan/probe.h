// Force-included (nvcc -include) into copies of the 04 and 05 samples for run 3; build3.sh inserts
// SCAN_BENCH_PROBE(ScanTiles, kThreads) before `++epoch;` in solve(). Once per process it sets the
// shared-memory carveout to PROBE_CARVE percent (-1: leaves the driver's choice alone) and prints
// what the occupancy calculator makes of the kernel. Nothing else in the sample changes.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>

#define SCAN_BENCH_PROBE(K, T)                                                                                \
  do {                                                                                                        \
    static bool probed_ = false;                                                                              \
    if (!probed_) {                                                                                           \
      probed_ = true;                                                                                         \
      if (PROBE_CARVE >= 0) {                                                                                 \
        const cudaError_t e_ = cudaFuncSetAttribute(K, cudaFuncAttributePreferredSharedMemoryCarveout, PROBE_CARVE); \
        if (e_ != cudaSuccess) std::printf("probe %s: carveout %d failed: %s\n", PROBE_NAME, PROBE_CARVE, cudaGetErrorString(e_)); \
      }                                                                                                       \
      int b_ = 0;                                                                                             \
      cudaFuncAttributes a_{};                                                                                \
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b_, K, T, 0);                                            \
      cudaFuncGetAttributes(&a_, K);                                                                          \
      std::printf("occupancy %-26s %d blocks/SM (calculator), %d regs, %zu B static smem, carveout attr %d\n", \
                  PROBE_NAME, b_, a_.numRegs, a_.sharedSizeBytes, a_.preferredShmemCarveout);                 \
    }                                                                                                         \
  } while (0)

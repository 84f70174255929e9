// SPDX-License-Identifier: MIT
// The bench drivers' (ncu_driver.cu, ncu_record.cu) check of a CUDA call inside main(): a bare
// program exits 1 with the call and CUDA's reason.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e = (call);                                                  \
    if (e != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e)); \
      return 1;                                                              \
    }                                                                        \
  } while (0)

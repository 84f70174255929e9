// SPDX-License-Identifier: MIT
// A bare host program for recording Nsight Compute metric sets of built samples, before `judge
// profile` existed (the fixtures of judge/profile were first recorded with it). Loads a submission,
// fills its inputs with the catalog's value ranges and calls solve() CALLS times.
// usage: ncu_record LIBRARY.so reduction|block_sums N CALLS
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_check.h"


int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s LIBRARY.so reduction|block_sums N CALLS\n", argv[0]);
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    std::fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  void* solve = dlsym(lib, "solve");
  if (!solve) return 1;
  const bool ints = std::strcmp(argv[2], "block_sums") == 0;
  const int n = std::atoi(argv[3]), calls = std::atoi(argv[4]);
  std::vector<int32_t> host(size_t(n), 0);
  for (int i = 0; i < n; ++i) {
    const int v = int((int64_t(i) * 7919) % 1000);
    if (ints)
      host[size_t(i)] = v;
    else {
      float f = float(v - 500);
      std::memcpy(&host[size_t(i)], &f, 4);
    }
  }
  void* in = nullptr;
  void* out = nullptr;
  CHECK(cudaMalloc(&in, size_t(n) * 4));
  CHECK(cudaMalloc(&out, ints ? size_t(n / 256) * 4 : 4));
  for (int c = 0; c < calls; ++c) {
    CHECK(cudaMemcpy(in, host.data(), size_t(n) * 4, cudaMemcpyHostToDevice));  // reduce0 works in place
    CHECK(cudaMemset(out, 0, ints ? size_t(n / 256) * 4 : 4));
    if (ints)
      reinterpret_cast<void (*)(int*, int*, int)>(solve)(static_cast<int*>(in), static_cast<int*>(out), n);
    else
      reinterpret_cast<void (*)(const float*, float*, int)>(solve)(static_cast<const float*>(in),
                                                                  static_cast<float*>(out), n);
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}

// SPDX-License-Identifier: MIT
// A bare host program for Nsight Compute: loads a built submission, fills three input buffers of
// N floats (integers in [-1000, 1000]) and calls solve() on them in rotation. It exists so ncu
// times the same kernel the judge times, without the judge's worker and sandbox in the way.
// usage: ncu_driver LIBRARY.so N CALLS
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"


int main(int argc, char** argv) {
  if (argc != 4) { std::fprintf(stderr, "usage: %s LIBRARY.so N CALLS\n", argv[0]); return 2; }
  void* lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) { std::fprintf(stderr, "dlopen: %s\n", dlerror()); return 1; }
  using Solve = void (*)(const float*, float*, int);
  auto solve = reinterpret_cast<Solve>(dlsym(lib, "solve"));
  if (!solve) { std::fprintf(stderr, "no solve in %s\n", argv[1]); return 1; }
  int n = std::atoi(argv[2]), calls = std::atoi(argv[3]);
  std::vector<float> host(static_cast<size_t>(n));
  float* in[3] = {};
  float* out = nullptr;
  for (int v = 0; v < 3; ++v) {
    for (int i = 0; i < n; ++i) host[size_t(i)] = float((int64_t(i) * 7919 + v * 104729) % 2001 - 1000);
    CHECK(cudaMalloc(&in[v], size_t(n) * sizeof(float)));
    CHECK(cudaMemcpy(in[v], host.data(), size_t(n) * sizeof(float), cudaMemcpyHostToDevice));
  }
  CHECK(cudaMalloc(&out, sizeof(float)));
  for (int c = 0; c < calls; ++c) solve(in[c % 3], out, n);
  CHECK(cudaDeviceSynchronize());
  for (float* p : in) CHECK(cudaFree(p));
  CHECK(cudaFree(out));
  return 0;
}

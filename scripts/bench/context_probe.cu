// SPDX-License-Identifier: MIT
// Where does the spread of a cold small-N median between processes come from? One process loads a
// built submission COPIES times (copies of the .so: the code at different addresses), allocates
// its input at PLACEMENTS places (256+ MB apart) and FLUSHES L2-flush buffers, then times solve()
// like the judge (read-flush, events around the call) in rotation over all of them, with an empty
// event window after each call. It prints the median over everything, the empty window, and the
// median per placement and per copy. Run it in several processes and compare the lines.
// With SECONDS, it instead times the first placement every ~2 ms for that long and prints the
// median of each half second (does a process's figure drift in time?).
// usage: context_probe LIB.so N PLACEMENTS COPIES FLUSHES ROUNDS [SECONDS]
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#define CHECK(x)                                                             \
  do {                                                                       \
    cudaError_t e = (x);                                                     \
    if (e != cudaSuccess) {                                                  \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e));                    \
      std::exit(1);                                                          \
    }                                                                        \
  } while (0)
__global__ void ReadFlush(const float4* p, size_t n4, float* sink) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x) { float4 v = p[i]; s += v.x + v.y + v.z + v.w; }
  if (s == 1.2345e-30f) sink[blockIdx.x] = s;
}
__global__ void Fill(float* p, int n, int seed) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = float((int64_t(i) * 7919 + seed) % 2001 - 1000);
}
static double Median(std::vector<double> v) { std::sort(v.begin(), v.end()); size_t n = v.size(); return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]); }
int main(int argc, char** argv) {
  if (argc != 7 && argc != 8) {
    std::fprintf(stderr, "usage: %s LIB.so N PLACEMENTS COPIES FLUSHES ROUNDS [SECONDS]\n", argv[0]);
    return 2;
  }
  int n = std::atoi(argv[2]), places = std::atoi(argv[3]), copies = std::atoi(argv[4]), flushes = std::atoi(argv[5]),
      rounds = std::atoi(argv[6]);
  double seconds = argc == 8 ? std::atof(argv[7]) : 0;
  if (n <= 0 || places <= 0 || copies <= 0 || flushes <= 0 || rounds <= 0) return 2;
  using Solve = void (*)(const float*, float*, int);
  std::vector<Solve> solve;
  for (int k = 0; k < copies; ++k) {
    std::string path = "/tmp/placement_copy" + std::to_string(k) + "_" + std::to_string(getpid()) + ".so";
    std::string cmd = "cp " + std::string(argv[1]) + " " + path;
    if (std::system(cmd.c_str()) != 0) return 1;
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) { std::printf("dlopen %s\n", dlerror()); return 1; }
    unlink(path.c_str());  // the mapping stays
    solve.push_back(reinterpret_cast<Solve>(dlsym(lib, "solve")));
  }
  int l2 = 0; CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  size_t flush_bytes = std::max<size_t>(2 * size_t(l2), 64u << 20);
  std::vector<float*> flush_buf(flushes);
  for (auto& f : flush_buf) { CHECK(cudaMalloc(&f, flush_bytes)); CHECK(cudaMemset(f, 0, flush_bytes)); }
  float* flush = flush_buf[0];
  float *sink, *out;
  CHECK(cudaMalloc(&sink, 1 << 16)); CHECK(cudaMalloc(&out, 4));
  std::vector<float*> in(places), spacer(places);
  for (int p = 0; p < places; ++p) {
    CHECK(cudaMalloc(&spacer[p], size_t(256 + 64 * p) << 20));
    CHECK(cudaMalloc(&in[p], size_t(n) * 4));
    Fill<<<1024, 256>>>(in[p], n, p);
  }
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b; CHECK(cudaEventCreate(&a)); CHECK(cudaEventCreate(&b));
  std::vector<std::vector<double>> by_place(places), by_copy(copies);
  std::vector<double> all, empty;
  for (int r = -2; r < rounds; ++r)
    for (int p = 0; p < places; ++p)
      for (int k = 0; k < copies; ++k) {
        flush = flush_buf[size_t(p * copies + k + r + 2) % flushes];
        ReadFlush<<<1056, 256>>>(reinterpret_cast<const float4*>(flush), flush_bytes / 16, sink);
        CHECK(cudaEventRecord(a)); solve[k](in[p], out, n); CHECK(cudaEventRecord(b)); CHECK(cudaEventSynchronize(b));
        float ms; CHECK(cudaEventElapsedTime(&ms, a, b));
        if (r >= 0) { by_place[p].push_back(ms * 1e3); by_copy[k].push_back(ms * 1e3); all.push_back(ms * 1e3); }
        ReadFlush<<<1056, 256>>>(reinterpret_cast<const float4*>(flush), flush_bytes / 16, sink);
        CHECK(cudaEventRecord(a)); CHECK(cudaEventRecord(b)); CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b)); if (r >= 0) empty.push_back(ms * 1e3);
      }
  if (seconds > 0) {
    std::vector<double> block;
    auto t0 = std::chrono::steady_clock::now(), tb = t0;
    std::printf("drift (medians per 0.5 s, a call every ~2 ms):");
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) {
      ReadFlush<<<1056, 256>>>(reinterpret_cast<const float4*>(flush), flush_bytes / 16, sink);
      CHECK(cudaEventRecord(a)); solve[0](in[0], out, n); CHECK(cudaEventRecord(b)); CHECK(cudaEventSynchronize(b));
      float ms; CHECK(cudaEventElapsedTime(&ms, a, b)); block.push_back(ms * 1e3);
      usleep(2000);
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - tb).count() >= 0.5) {
        std::printf(" %.3f", Median(block)); block.clear(); tb = std::chrono::steady_clock::now();
      }
    }
    std::printf("\n");
    return 0;
  }
  double mean_empty = 0; for (double e : empty) mean_empty += e; mean_empty /= empty.size();
  std::printf("all %.3f us (n=%zu), empty window median %.3f mean %.4f | places", Median(all), all.size(), Median(empty), mean_empty);
  for (int p = 0; p < places; ++p) std::printf(" %.3f", Median(by_place[p]));
  std::printf(" | copies");
  for (int k = 0; k < copies; ++k) std::printf(" %.3f", Median(by_copy[k]));
  std::printf("\n");
  return 0;
}

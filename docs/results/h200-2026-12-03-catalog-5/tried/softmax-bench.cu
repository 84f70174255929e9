// Throwaway harness: correctness against float64 and cold-L2 timing of a softmax sample's solve().
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
extern "C" void solve(const float* input, float* output, int rows, int cols);
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)
static uint64_t rng = 88172645463325252ull;
static float Uniform(float lo, float hi) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return lo + (hi - lo) * float((rng >> 40) * (1.0 / 16777216.0)); }
static bool Check(int rows, int cols, int offset, float lo, float hi) {
  size_t n = size_t(rows) * cols;
  std::vector<float> h(n), o(n);
  for (auto& v : h) v = Uniform(lo, hi);
  float *din, *dout;
  CK(cudaMalloc(&din, (n + 8) * 4)); CK(cudaMalloc(&dout, (n + 8) * 4));
  CK(cudaMemcpy(din + offset, h.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dout, 0xff, (n + 8) * 4));
  solve(din + offset, dout + offset, rows, cols);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(o.data(), dout + offset, n * 4, cudaMemcpyDeviceToHost));
  double worst = 0; size_t bad = 0;
  for (int r = 0; r < rows; ++r) {
    const float* x = &h[size_t(r) * cols];
    double m = -1e300, s = 0;
    for (int j = 0; j < cols; ++j) m = std::max(m, double(x[j]));
    for (int j = 0; j < cols; ++j) s += std::exp(double(x[j]) - m);
    for (int j = 0; j < cols; ++j) {
      double e = std::exp(double(x[j]) - m) / s, got = o[size_t(r) * cols + j];
      double tol = 1e-12 + 1e-5 * std::fabs(e) + std::ldexp(1.0, -23) * std::sqrt(double(cols)) * std::fabs(e);
      double err = std::fabs(got - e);
      if (!(err <= tol)) ++bad; else worst = std::max(worst, err / tol);
    }
  }
  printf("check %dx%d offset %d [%g,%g]: %s (bad %zu, worst %.3f of allowance)\n", rows, cols, offset, lo, hi, bad ? "FAIL" : "PASS", bad, worst);
  CK(cudaFree(din)); CK(cudaFree(dout));
  return bad == 0;
}
static void Time(int rows, int cols) {
  size_t n = size_t(rows) * cols;
  float *din, *dout; char* flush;
  CK(cudaMalloc(&din, n * 4)); CK(cudaMalloc(&dout, n * 4)); CK(cudaMalloc(&flush, 256 << 20));
  std::vector<float> h(n); for (auto& v : h) v = Uniform(-10, 10);
  CK(cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice));
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) solve(din, dout, rows, cols);
  CK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int i = 0; i < 30; ++i) {
    CK(cudaMemsetAsync(flush, i, 256 << 20));
    CK(cudaEventRecord(a)); solve(din, dout, rows, cols); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    float t; CK(cudaEventElapsedTime(&t, a, b)); ms.push_back(t);
  }
  CK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  double med = ms[15] * 1e3, gbs = 8.0 * n / (med * 1e-6) / 1e9;
  printf("time %dx%d: median %.2f us, min %.2f us, %.0f GB/s, %.1f%% of 4539\n", rows, cols, med, ms[0] * 1e3, gbs, 100 * gbs / 4539);
  CK(cudaFree(din)); CK(cudaFree(dout)); CK(cudaFree(flush));
}
int main(int argc, char** argv) {
  bool ok = true;
  if (argc < 2 || argv[1][0] != 't') {
    ok &= Check(256, 262144, 0, -1000, 1000);
    ok &= Check(64, 262144, 0, -3, 3);
    ok &= Check(16384, 4096, 0, -10, 10);
    ok &= Check(3, 100003, 1, -50, 50);
    ok &= Check(7, 8193, 0, 90, 110);
    ok &= Check(1000, 1, 0, -1, 1);
    ok &= Check(1000000, 3, 0, -1, 1);
    ok &= Check(1, 262144, 0, -1000, 1000);
    ok &= Check(33, 32769, 3, -5, 5);
  }
  Time(256, 262144);
  Time(16384, 4096);
  printf("%s\n", ok ? "ALL PASS" : "SOME FAILED");
  return ok ? 0 : 1;
}

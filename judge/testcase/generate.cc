// SPDX-License-Identifier: MIT
#include "judge/testcase/generate.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace judge {
namespace {

inline uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Uniform in [0, 1) with 53 random bits.
inline double Unit(uint64_t seed, uint64_t i, uint64_t stream) {
  return double(SplitMix64(SplitMix64(seed ^ (stream * 0xd1b54a32d192ed03ULL)) + i) >> 11) * 0x1.0p-53;
}

double Sample(const GeneratorSpec& g, int64_t i) {
  if (i < int64_t(g.head.size())) return g.head[size_t(i)];
  const auto u = uint64_t(i);
  if (g.dist == "uniform") return g.low + (g.high - g.low) * Unit(g.seed, u, 0);
  if (g.dist == "uniform_int") return std::floor(g.low + (g.high - g.low + 1) * Unit(g.seed, u, 0));
  if (g.dist == "constant") return g.value;
  if (g.dist == "arange") return g.start + g.step * double(i);
  // normal, Box-Muller on two independent streams
  double u1 = std::max(Unit(g.seed, u, 1), 0x1.0p-60), u2 = Unit(g.seed, u, 2);
  return g.mean + g.stddev * std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

template <typename T>
void Fill(const GeneratorSpec& g, T* out, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) out[i] = static_cast<T>(Sample(g, i));
}

template <typename T>
void FillParallel(const GeneratorSpec& g, T* out, int64_t count) {
  unsigned threads = count < (1 << 20) ? 1u : std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
  std::vector<std::thread> pool;
  int64_t chunk = (count + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    int64_t b = std::min<int64_t>(count, t * chunk), e = std::min<int64_t>(count, b + chunk);
    if (b < e) pool.emplace_back([&g, out, b, e] { Fill(g, out, b, e); });
  }
  for (auto& th : pool) th.join();
}

template <typename T>
void FillLiteral(const std::vector<double>& values, T* out) {
  for (size_t i = 0; i < values.size(); ++i) out[i] = static_cast<T>(values[i]);
}

}  // namespace

HostBytes MaterializeInput(const InputSpec& spec, DType dtype, int64_t count) {
  HostBytes bytes(size_t(count) * DTypeSize(dtype));
  if (spec.values) {
    if (dtype == DType::kFloat32) FillLiteral(*spec.values, reinterpret_cast<float*>(bytes.data()));
    else FillLiteral(*spec.values, reinterpret_cast<int32_t*>(bytes.data()));
  } else if (spec.generate) {
    if (dtype == DType::kFloat32) FillParallel(*spec.generate, reinterpret_cast<float*>(bytes.data()), count);
    else FillParallel(*spec.generate, reinterpret_cast<int32_t*>(bytes.data()), count);
  }
  return bytes;
}

}  // namespace judge

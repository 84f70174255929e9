// SPDX-License-Identifier: MIT
#include "judge/testcase/generate.h"

#include <algorithm>
#include <cmath>

#include "judge/device/generate_kernel.h"
#include "judge/util/counter_rng.h"
#include "judge/util/parallel.h"

namespace judge {
namespace {

using rng::StreamKey;
using rng::Unit;

// The distributions the device can make run the device's own arithmetic (CounterValue, one
// definition for both); the normal one stays here.
template <typename T>
void FillParallel(const GeneratorSpec& g, T* out, int64_t count) {
  auto run = [&](auto value) {
    ParallelChunks(count, [&](unsigned, int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) out[i] = static_cast<T>(value(uint64_t(i)));
    });
  };
  if (auto fill = CounterFillFor(g, std::is_same_v<T, float> ? DType::kFloat32 : DType::kInt32)) {
    run([&](uint64_t i) { return CounterValue(*fill, i); });
  } else {  // normal, Box-Muller on two independent streams
    const uint64_t k1 = StreamKey(g.seed, 1), k2 = StreamKey(g.seed, 2);
    run([&](uint64_t i) {
      double u1 = std::max(Unit(k1, i), 0x1.0p-60), u2 = Unit(k2, i);
      return g.mean + g.stddev * std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    });
  }
  for (size_t i = 0; i < g.head.size() && int64_t(i) < count; ++i) out[i] = static_cast<T>(g.head[i]);
}

template <typename T>
void FillLiteral(const std::vector<double>& values, T* out) {
  for (size_t i = 0; i < values.size(); ++i) out[i] = static_cast<T>(values[i]);
}

}  // namespace

std::optional<CounterFill> CounterFillFor(const GeneratorSpec& g, DType dtype) {
  CounterFill f;
  f.is_float = dtype == DType::kFloat32;
  f.key = StreamKey(g.seed, 0);
  if (g.dist == "uniform") {
    f.kind = CounterFill::kUniform;
    f.a = g.low;
    f.b = g.high - g.low;
  } else if (g.dist == "uniform_int") {
    f.kind = CounterFill::kUniformInt;
    f.a = g.low;
    f.b = g.high - g.low + 1;
  } else if (g.dist == "constant") {
    f.kind = CounterFill::kConstant;
    f.a = g.value;
  } else if (g.dist == "arange") {
    f.kind = CounterFill::kArange;
    f.a = g.start;
    f.b = g.step;
  } else
    return std::nullopt;  // normal: log and cos round differently on the device
  f.hot_value = g.hot_value;
  f.hot_fraction = g.hot_fraction;
  f.hot_key = StreamKey(g.seed, 3);
  return f;
}

HostBytes MaterializeHead(const GeneratorSpec& g, DType dtype, int64_t count) {
  int64_t n = std::min<int64_t>(count, int64_t(g.head.size()));
  HostBytes bytes(size_t(n) * DTypeSize(dtype));
  for (int64_t i = 0; i < n; ++i) {
    if (dtype == DType::kFloat32)
      reinterpret_cast<float*>(bytes.data())[i] = static_cast<float>(g.head[size_t(i)]);
    else
      reinterpret_cast<int32_t*>(bytes.data())[i] = static_cast<int32_t>(g.head[size_t(i)]);
  }
  return bytes;
}

HostBytes MaterializeInput(const InputSpec& spec, DType dtype, int64_t count) {
  HostBytes bytes(size_t(count) * DTypeSize(dtype));
  if (spec.values) {
    if (dtype == DType::kFloat32)
      FillLiteral(*spec.values, reinterpret_cast<float*>(bytes.data()));
    else
      FillLiteral(*spec.values, reinterpret_cast<int32_t*>(bytes.data()));
  } else if (spec.generate) {
    if (dtype == DType::kFloat32)
      FillParallel(*spec.generate, reinterpret_cast<float*>(bytes.data()), count);
    else
      FillParallel(*spec.generate, reinterpret_cast<int32_t*>(bytes.data()), count);
  }
  return bytes;
}

}  // namespace judge

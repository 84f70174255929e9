// SPDX-License-Identifier: MIT
#pragma once
// Element i of a CounterFill, the same bits on the host and the device (counter_rng.h).
#include <cmath>
#include <cstdint>
#include <cstring>

#include "judge/device/device.h"
#include "judge/util/counter_rng.h"

namespace judge {

JUDGE_HOST_DEVICE inline double CounterValue(const CounterFill& f, uint64_t i) {
  if (f.hot_fraction > 0 && rng::Unit(f.hot_key, i) < f.hot_fraction) return f.hot_value;
  switch (f.kind) {
    case CounterFill::kUniform: return rng::AddMul(f.a, f.b, rng::Unit(f.key, i));
    case CounterFill::kUniformInt: return floor(rng::AddMul(f.a, f.b, rng::Unit(f.key, i)));
    case CounterFill::kConstant: return f.a;
    case CounterFill::kArange: return rng::AddMul(f.a, f.b, double(i));
  }
  return 0;
}

// The 32-bit word element i is stored as (float32 or int32, by f.is_float).
JUDGE_HOST_DEVICE inline uint32_t CounterWord(const CounterFill& f, uint64_t i) {
  double v = CounterValue(f, i);
  uint32_t word = 0;
  if (f.is_float) {
    float x = static_cast<float>(v);
    memcpy(&word, &x, sizeof word);
  } else {
    int32_t x = static_cast<int32_t>(v);
    memcpy(&word, &x, sizeof word);
  }
  return word;
}

// Writes `count` elements of `fill` to device memory and waits; 0 on success, else a cudaError_t.
// With `checksum` (device memory, zeroed by the caller) it also adds up the checksum of what it
// wrote (checksum.h), so the input needs no second pass to be read back.
int DeviceGenerate(const CounterFill& fill, void* out, int64_t count, unsigned long long* checksum = nullptr);

}  // namespace judge

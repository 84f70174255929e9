// SPDX-License-Identifier: MIT
#pragma once
// Materializes an InputSpec into host memory. Counter-based (each element is a hash of seed and
// index), so it is deterministic, identical in every process, and parallel: 1e8 floats in
// well under a second on a few cores.
#include <cstdint>
#include <optional>

#include "judge/device/device.h"
#include "judge/problem/problem.h"
#include "judge/testcase/testcase.h"
#include "judge/util/uninitialized.h"

namespace judge {

// A host buffer of `count` elements of `dtype`, as raw bytes.
using HostBytes = UninitializedVector<uint8_t>;

HostBytes MaterializeInput(const InputSpec& spec, DType dtype, int64_t count);

// The same values as MaterializeInput, as a fill the device can run itself (no host pass, no
// upload); nullopt for distributions it cannot reproduce bit for bit. `head` is not included:
// MaterializeHead gives those first elements, to copy over.
std::optional<CounterFill> CounterFillFor(const GeneratorSpec& g, DType dtype);
HostBytes MaterializeHead(const GeneratorSpec& g, DType dtype, int64_t count);

// The value of element i as double, for references that want it without the bytes.
inline double ElementAsDouble(const HostBytes& bytes, DType dtype, int64_t i) {
  if (dtype == DType::kFloat32) return double(reinterpret_cast<const float*>(bytes.data())[i]);
  return double(reinterpret_cast<const int32_t*>(bytes.data())[i]);
}

}  // namespace judge

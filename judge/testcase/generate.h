// SPDX-License-Identifier: MIT
#pragma once
// Materializes an InputSpec into host memory. Counter-based (each element is a hash of seed and
// index), so it is deterministic, identical in every process, and parallel: 1e8 floats in
// well under a second on a few cores.
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "judge/device/device.h"
#include "judge/problem/problem.h"
#include "judge/testcase/testcase.h"

namespace judge {

// Leaves new elements uninitialized: a 400 MB input is written once, by the generator, not first
// zeroed by the vector on one thread.
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

// A host buffer of `count` elements of `dtype`, as raw bytes.
using HostBytes = std::vector<uint8_t, UninitializedAllocator<uint8_t>>;

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

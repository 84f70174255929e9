// SPDX-License-Identifier: MIT
#pragma once
// An order-independent 64-bit checksum of a buffer's 32-bit words, computed on the device (to
// detect a submission that modifies its input) and identically on the host (the test double).
#include <cstddef>
#include <cstdint>

#include "judge/util/host_device.h"

namespace judge {

// Each word is mixed with its index, so moving data around changes the sum as surely as changing it.
JUDGE_HOST_DEVICE inline uint64_t MixWord(uint32_t word, uint64_t index) {
  uint64_t x = (uint64_t(word) << 32 | word) ^ (index * 0x9E3779B97F4A7C15ull);
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return x;
}

inline uint64_t HostChecksum(const void* data, size_t bytes) {
  const auto* w = static_cast<const uint32_t*>(data);
  uint64_t sum = 0;
  for (size_t i = 0; i < bytes / 4; ++i) sum += MixWord(w[i], i);
  return sum;
}

// Launches the checksum kernel on the default stream and waits; 0 on success, else a cudaError_t.
int DeviceChecksum(const void* data, size_t bytes, uint64_t* result);

}  // namespace judge

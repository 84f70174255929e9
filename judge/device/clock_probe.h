// SPDX-License-Identifier: MIT
#pragma once
// A one-thread kernel that records the SM cycle counter and the global nanosecond timer, so the
// judge can tell the SM clock a timed call ran at (nvbench's throttle check).
#include <cstdint>

namespace judge {

struct ClockStamp {
  uint64_t cycles = 0;  // clock64() of the SM the probe ran on
  uint64_t nanos = 0;   // %globaltimer
  uint64_t sm = 0;      // %smid: cycle counters are per SM, comparable only on the same SM
};

// Queues the probe on the default stream; it writes *slot (device memory) when it runs.
int DeviceClockStampAsync(ClockStamp* slot);

// Queues a one-thread kernel that spins until `nanos` have passed on the global timer.
int DeviceSpinAsync(uint64_t nanos);

// Average SM clock between two stamps in MHz; 0 when they cannot be compared.
inline double ClockMhzBetween(const ClockStamp& a, const ClockStamp& b) {
  if (a.sm != b.sm || b.nanos <= a.nanos || b.cycles <= a.cycles) return 0;
  return double(b.cycles - a.cycles) / double(b.nanos - a.nanos) * 1e3;
}

}  // namespace judge

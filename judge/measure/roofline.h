// SPDX-License-Identifier: MIT
#pragma once
// Where a call's time stands against what the GPU can do: the least time its bytes take at the
// memory ceiling the judge measured, or its flops at the measured FP32 ceiling, whichever is longer
// (that one binds), over the time it took. docs/MEASUREMENT.md says why the memory ceiling mixes
// the read and the copy ceilings by the share of bytes written.
#include <string_view>

#include "judge/device/device.h"
#include "judge/problem/problem.h"

namespace judge {

enum class Bound { kUnknown, kMemory, kCompute };
std::string_view BoundName(Bound b);  // "memory" | "compute" | "unknown"

struct RooflinePoint {
  double gbps = 0;    // bytes read and written over the time
  double gflops = 0;  // flops over the time (0 for a problem that counts none)
  Bound bound = Bound::kUnknown;
  double ceiling_ms = 0;  // the binding ceiling's least time for this work
  double pct = 0;         // ceiling_ms over the time, in percent (0: no ceiling measured)
};

// The memory ceiling for a call that writes `written` of its `bytes`: the read ceiling when it only
// reads, the copy ceiling when it writes half of what it moves (or more), in between harmonically
// (the time of each byte adds up).
double MemoryCeilingGbps(const Ceilings& c, double bytes, double written);

RooflinePoint PlaceOnRoofline(const Work& work, double ms, const Ceilings& ceilings);

}  // namespace judge

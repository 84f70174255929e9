// SPDX-License-Identifier: MIT
#pragma once
// Where a call's time stands against what the GPU can do: the least time its bytes take at the
// memory ceiling the judge measured, or its flops at the measured FP32 ceiling, whichever is longer
// (that one binds), over the time it took.
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

// The memory ceiling: the fastest the judge's own kernels moved bytes on this GPU, reading or
// copying. Not a blend by the share of bytes written: on the H200 vector_add (a third written)
// moved 4424 GB/s, above the 3964 GB/s of the judge's copy kernel, so a blend would have put it at
// 106% (docs/results/h200-2026-12-01-catalog-smoke.md). Writes are no faster than reads on HBM.
double MemoryCeilingGbps(const Ceilings& c);

RooflinePoint PlaceOnRoofline(const Work& work, double ms, const Ceilings& ceilings);

}  // namespace judge

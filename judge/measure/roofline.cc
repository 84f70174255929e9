// SPDX-License-Identifier: MIT
#include "judge/measure/roofline.h"

#include <algorithm>

namespace judge {

std::string_view BoundName(Bound b) {
  switch (b) {
    case Bound::kMemory: return "memory";
    case Bound::kCompute: return "compute";
    case Bound::kUnknown: return "unknown";
  }
  return "unknown";
}

double MemoryCeilingGbps(const Ceilings& c) { return std::max(c.read_gbps, c.copy_gbps); }

RooflinePoint PlaceOnRoofline(const Work& work, double ms, const Ceilings& ceilings) {
  RooflinePoint p;
  if (ms <= 0) return p;
  const double seconds = ms * 1e-3, bytes = double(work.bytes());
  p.gbps = bytes / seconds / 1e9;
  p.gflops = work.flops / seconds / 1e9;
  const double memory_gbps = MemoryCeilingGbps(ceilings);
  const double memory_ms = memory_gbps > 0 ? bytes / (memory_gbps * 1e9) * 1e3 : 0;
  const double compute_ms = ceilings.fp32_gflops > 0 ? work.flops / (ceilings.fp32_gflops * 1e9) * 1e3 : 0;
  if (memory_ms <= 0 && compute_ms <= 0) return p;
  p.bound = compute_ms > memory_ms ? Bound::kCompute : Bound::kMemory;
  p.ceiling_ms = std::max(memory_ms, compute_ms);
  p.pct = 100 * p.ceiling_ms / ms;
  return p;
}

}  // namespace judge

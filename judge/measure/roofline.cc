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

double MemoryCeilingGbps(const Ceilings& c, double bytes, double written) {
  if (c.read_gbps <= 0) return 0;
  if (c.copy_gbps <= 0 || bytes <= 0 || written <= 0) return c.read_gbps;
  const double copy_share = std::min(1.0, 2 * written / bytes);  // of the bytes, moved as in a copy
  return 1 / ((1 - copy_share) / c.read_gbps + copy_share / c.copy_gbps);
}

RooflinePoint PlaceOnRoofline(const Work& work, double ms, const Ceilings& ceilings) {
  RooflinePoint p;
  if (ms <= 0) return p;
  const double seconds = ms * 1e-3, bytes = double(work.bytes());
  p.gbps = bytes / seconds / 1e9;
  p.gflops = work.flops / seconds / 1e9;
  const double memory_gbps = MemoryCeilingGbps(ceilings, bytes, double(work.bytes_written));
  const double memory_ms = memory_gbps > 0 ? bytes / (memory_gbps * 1e9) * 1e3 : 0;
  const double compute_ms = ceilings.fp32_gflops > 0 ? work.flops / (ceilings.fp32_gflops * 1e9) * 1e3 : 0;
  if (memory_ms <= 0 && compute_ms <= 0) return p;
  p.bound = compute_ms > memory_ms ? Bound::kCompute : Bound::kMemory;
  p.ceiling_ms = std::max(memory_ms, compute_ms);
  p.pct = 100 * p.ceiling_ms / ms;
  return p;
}

}  // namespace judge

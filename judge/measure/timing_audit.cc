// SPDX-License-Identifier: MIT
#include "judge/measure/timing_audit.h"

#include <algorithm>

#include "judge/measure/sample_stats.h"

namespace judge {

// Thresholds: launching a kernel inside the window costs a few microseconds beyond the empty
// window, so unseen time is "escaped" only when it exceeds both 15 us and the event time itself.
constexpr double kUnseenFloorMs = 0.015;

TimingAudit AuditTiming(const std::vector<double>& event_ms, const std::vector<double>& wall_ms,
                        double overhead_wall_ms) {
  TimingAudit a;
  a.event_median_ms = Summarize(event_ms).median;
  a.wall_median_ms = Summarize(wall_ms).median;
  a.overhead_wall_ms = overhead_wall_ms;
  a.unseen_ms = std::max(0.0, a.wall_median_ms - overhead_wall_ms - a.event_median_ms);
  a.escaped = a.unseen_ms > std::max(kUnseenFloorMs, a.event_median_ms);
  a.honest_median_ms = a.escaped ? a.wall_median_ms - overhead_wall_ms : a.event_median_ms;
  return a;
}

}  // namespace judge

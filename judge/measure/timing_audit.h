// SPDX-License-Identifier: MIT
#pragma once
// Compares what the CUDA events saw with what the host's wall clock saw (around the call plus a
// device-wide sync). Work that escapes the event window - launched on another stream, or left
// running after solve() returns - shows up as wall time the events did not see.
#include <vector>

namespace judge {

struct TimingAudit {
  double event_median_ms = 0;
  double wall_median_ms = 0;
  double overhead_wall_ms = 0;  // an empty event window with the same sync
  double unseen_ms = 0;         // wall - overhead - event: time the events did not account for
  bool escaped = false;         // unseen time too large to be launch jitter
  double honest_median_ms = 0;  // what the judge reports: event time, or wall-based when escaped
};

TimingAudit AuditTiming(const std::vector<double>& event_ms, const std::vector<double>& wall_ms,
                        double overhead_wall_ms);

}  // namespace judge

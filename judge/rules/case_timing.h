// SPDX-License-Identifier: MIT
#pragma once
// The timing summary of a case, as a pure function of the calls the worker reported: which calls
// are samples, what is subtracted, when a result is flagged (and so not ranked), and the figure
// that ranks (CaseResult::audit.honest_median_ms, the one definition of "the time" of a case).
// How calls are made and when sampling stops is the worker's (measure/sample_stats.h's rules).
#include <string>
#include <vector>

#include "judge/core/run_report.h"
#include "judge/protocol/messages.h"

namespace judge {

struct TimingContext {
  double window_correction_ms = 0;  // the empty event window, subtracted from every sample
  bool single_call = false;         // a sanitizer run: no figure at all
  double plausible_gbps = 0;        // faster than this is flagged as implausible (0: no bound)
  std::string plausible_basis;      // where that bound comes from, for the flag's text
};

// Fills the timing fields of `result` (event, wall, hot, samples, audit, gbps, flags, ...) from
// `report`; `call_process[i]` is the worker process of call i (empty: all from the first).
// result->min_bytes must be set.
void SummarizeTiming(const CaseReport& report, const std::vector<int>& call_process, const TimingContext& context,
                     CaseResult* result);

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// The timing summary of a case, as a pure function of the calls the worker reported: which calls
// are samples, what is subtracted, when a result is flagged (and so not ranked), and the figure
// that ranks (CaseResult::audit.honest_median_ms, the one definition of "the time" of a case).
// How calls are made and when sampling stops is the worker's (measure/sample_stats.h's rules).
#include <map>
#include <string>
#include <vector>

#include "judge/core/run_report.h"
#include "judge/protocol/messages.h"

namespace judge {

// The judge's own clock on the fresh timed calls (CaseRunner): per call, from sending its seeds to
// receiving its outputs, and the same on a no-op solve() in a trusted worker (the calibration).
struct JudgeClock {
  bool wanted = false;                                   // the case had fresh calls
  bool calibrated = false;                               // the trusted worker answered
  std::map<int, double> call_ms;                         // by call index
  double calibration_ms = 0, calibration_spread_ms = 0;  // fastest no-op call, and their IQR
};

// The in-worker event median must not be below what the judge's clock saw by more than this
// share, nor by more than the absolute allowance plus three calibration spreads. The allowance is
// 2.5x the judge's clock's own noise measured on the H200 (docs/results/h200-2026-12-01-judge-clock.md):
// with the calibration worker confined like the submission's, honest samples' per-call median on
// it exceeded their events by up to 60 us (pipe wake-ups, a second CUDA context). A forgery hiding
// less than this per call is not seen: a 2.3x forgery is seen from about 0.3 ms a call.
inline constexpr double kJudgeClockShare = 0.10;
inline constexpr double kJudgeClockFloorMs = 0.150;

struct JudgeClockComparison {
  double judge_ms = 0;    // the fastest call on the judge's clock, less the calibration
  double worker_ms = 0;   // the fastest of the worker's event times on the same calls
  double allowed_ms = 0;  // how far below judge_ms the worker's figure may be
  bool disagrees = false;
};
JudgeClockComparison CompareWithJudgeClock(const std::vector<double>& judge_call_ms,
                                           const std::vector<double>& worker_event_ms, double calibration_ms,
                                           double calibration_spread_ms);

struct TimingContext {
  double window_correction_ms = 0;  // the empty event window, subtracted from every sample
  bool single_call = false;         // a sanitizer run: no figure at all
  double plausible_gbps = 0;        // faster than this is flagged as implausible (0: no bound)
  std::string plausible_basis;      // where that bound comes from, for the flag's text
  JudgeClock judge_clock;
  Ceilings ceilings;  // this GPU's, for the roofline figures (zeros: not measured)
};

// Fills the timing fields of `result` (event, wall, hot, samples, audit, gbps, flags, ...) from
// `report`; `call_process[i]` is the worker process of call i (empty: all from the first).
// result->work and result->min_bytes must be set.
void SummarizeTiming(const CaseReport& report, const std::vector<int>& call_process, const TimingContext& context,
                     CaseResult* result);

}  // namespace judge

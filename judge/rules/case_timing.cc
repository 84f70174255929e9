// SPDX-License-Identifier: MIT
#include "judge/rules/case_timing.h"

#include "judge/measure/roofline.h"

#include <algorithm>
#include <cmath>

#include "judge/measure/sample_stats.h"
#include "judge/measure/timing_audit.h"

namespace judge {

JudgeClockComparison CompareWithJudgeClock(const std::vector<double>& judge_call_ms,
                                           const std::vector<double>& worker_event_ms, double calibration_ms,
                                           double calibration_spread_ms) {
  JudgeClockComparison c;
  if (judge_call_ms.empty() || worker_event_ms.empty()) return c;
  // Fastest calls: load on the machine only ever adds to the judge's clock, and a submission can
  // delay its answers but not hurry them, so the minima are the least noisy honest comparison.
  c.judge_ms = std::max(0.0, Summarize(judge_call_ms).min - calibration_ms);
  c.worker_ms = Summarize(worker_event_ms).min;
  c.allowed_ms = std::max(kJudgeClockShare * c.judge_ms, kJudgeClockFloorMs + 3 * calibration_spread_ms);
  c.disagrees = c.worker_ms < c.judge_ms - c.allowed_ms;
  return c;
}

namespace {

std::string Us(double ms) { return std::to_string(int(std::lround(ms * 1e3))) + " us"; }

// Timed calls only: hot calls have no flush, their judge's share differs from the calibration's.
void CheckJudgeClock(const CaseReport& rep, const JudgeClock& clock, CaseResult* result) {
  if (!clock.wanted) return;
  if (!clock.calibrated) {
    result->judge_clock.note = "not calibrated (the judge's trusted worker failed): not checked";
    return;
  }
  std::vector<double> judge, worker;
  for (const auto& [call, ms] : clock.call_ms) {
    if (call < 0 || size_t(call) >= rep.calls.size() || rep.calls[size_t(call)].kind != CallKind::kTimed) continue;
    judge.push_back(ms);
    worker.push_back(rep.calls[size_t(call)].event_ms);
  }
  if (judge.empty()) return;
  JudgeClockComparison c = CompareWithJudgeClock(judge, worker, clock.calibration_ms, clock.calibration_spread_ms);
  result->judge_clock.ms = c.judge_ms;
  result->judge_clock.calibration_ms = clock.calibration_ms;
  result->judge_clock.spread_ms = clock.calibration_spread_ms;
  if (c.disagrees)
    result->flags.push_back("the judge's own clock saw " + Us(c.judge_ms) +
                            " on its fastest call, the worker's timer " + Us(c.worker_ms) +
                            ": times measured inside the submission's process are not trusted beyond that (a "
                            "patched timer or clock?)");
}

}  // namespace

void SummarizeTiming(const CaseReport& rep, const std::vector<int>& call_process, const TimingContext& context,
                     CaseResult* result) {
  auto ProcessOf = [&](size_t call) { return call < call_process.size() ? call_process[call] : 0; };
  auto Net = [&](double ms) { return std::max(0.0, ms - context.window_correction_ms); };
  result->setup_seconds = rep.setup_ms / 1e3;
  result->overhead_event_ms = rep.overhead_event_ms;
  bool any_steady = false, any_timed = false;
  for (const CallRecord& call : rep.calls) {
    any_steady |= call.kind == CallKind::kTimed && !call.throttled;
    any_timed |= call.kind == CallKind::kTimed;
  }
  std::vector<double> event, wall, hot, clocks;
  for (size_t i = 0; i < rep.calls.size(); ++i) {
    const CallRecord& call = rep.calls[i];
    if (call.kind == CallKind::kWarmup) ++result->warmup_calls;
    // A case whose first call outlasted its budget has that call (flushed and timed) as its figure.
    if (!any_timed && call.kind == CallKind::kCheck && !context.single_call) {
      event.push_back(call.event_ms);
      wall.push_back(call.wall_ms);
      result->samples.push_back({Net(call.event_ms), call.variant, call.clock_mhz, ProcessOf(i)});
    }
    if (call.kind == CallKind::kHot) hot.push_back(Net(call.event_ms));
    if (call.kind != CallKind::kTimed) continue;
    if (call.throttled && any_steady) {
      ++result->throttled_discarded;
      continue;
    }
    event.push_back(call.event_ms);
    wall.push_back(call.wall_ms);
    result->samples.push_back(
        {Net(call.event_ms), call.fresh ? kFreshSample : call.variant, call.clock_mhz, ProcessOf(i)});
    if (call.clock_mhz > 0) clocks.push_back(call.clock_mhz);
  }
  CheckJudgeClock(rep, context.judge_clock, result);
  result->hot = Summarize(hot);
  result->sm_clock_mhz = Summarize(clocks).median;
  // Only timed calls can have been throttled throughout: a case whose figure is its first call
  // (over the budget) has none, and was flagged here by mistake before the rules had a table test.
  if (any_timed && !any_steady)
    result->flags.push_back("the GPU was throttled through every timed call (SM clock " +
                            std::to_string(int(result->sm_clock_mhz)) +
                            " MHz, under 75% of its peak): the timing is not representative");
  // The audit compares what the events saw with the host's wait, so it takes the raw times; the
  // reported figure is net of the empty window (what the events cost by themselves).
  std::vector<double> net;
  for (double ms : event) net.push_back(Net(ms));
  result->event = Summarize(net);
  result->wall = Summarize(wall);
  result->raw_event_median_ms = Summarize(event).median;
  result->window_correction_ms = context.window_correction_ms;
  if (event.empty()) return;
  result->audit = AuditTiming(event, wall, rep.overhead_wall_ms);
  if (!result->audit.escaped) result->audit.honest_median_ms = result->event.median;
  if (result->audit.escaped)
    result->flags.push_back("work escaped the event window: the events saw " +
                            std::to_string(result->audit.event_median_ms) + " ms but the host waited " +
                            std::to_string(result->audit.unseen_ms) +
                            " ms more (another stream, or work left running after solve() returned); timed by the "
                            "wall clock instead");
  double ms = result->audit.honest_median_ms;
  if (ms > 0) {
    RooflinePoint point = PlaceOnRoofline(result->work, ms, context.ceilings);
    result->gbps = point.gbps;
    result->gflops = point.gflops;
    result->bound = point.bound;
    result->roofline_pct = point.pct;
  }
  if (context.plausible_gbps > 0 && result->gbps > context.plausible_gbps && result->min_bytes > (64 << 20))
    result->flags.push_back("implausible: " + std::to_string(int(result->gbps)) +
                            " GB/s is above what this GPU's memory can deliver (" +
                            std::to_string(int(context.plausible_gbps)) + " GB/s, " + context.plausible_basis + ")");
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/serve/limits.h"

#include <string>

namespace judge::serve {
namespace {

constexpr int kInFlightRetrySeconds = 30;
constexpr int kHourlyRetrySeconds = 300;

bool InFlightFull(const Usage& usage, const Limits& limits) { return usage.in_flight >= limits.max_in_flight; }
bool HourFull(const Usage& usage, const Limits& limits) { return usage.last_hour >= limits.max_per_hour; }

}  // namespace

Status Admit(const Usage& usage, const Limits& limits) {
  // The hourly limit first: when both are reached, waiting for a verdict would not be enough.
  if (HourFull(usage, limits))
    return MakeError(ErrorCode::kUsage,
                     "at most " + std::to_string(limits.max_per_hour) + " submissions per hour per token: you sent " +
                         std::to_string(usage.last_hour) + " in the last hour; retry in a few minutes");
  if (InFlightFull(usage, limits))
    return MakeError(ErrorCode::kUsage, "at most " + std::to_string(limits.max_in_flight) +
                                            " submissions in flight per token: " + std::to_string(usage.in_flight) +
                                            " of yours are still queued or grading; retry when one is done");
  return Status::Ok();
}

int RetryAfterSeconds(const Usage& usage, const Limits& limits) {
  if (HourFull(usage, limits)) return kHourlyRetrySeconds;
  return InFlightFull(usage, limits) ? kInFlightRetrySeconds : 0;
}

}  // namespace judge::serve

// SPDX-License-Identifier: MIT
#pragma once
// `judge profile` (judge/profile, run/profile_run): a row of the command table in main.cc; and
// --profile, the same profile as a section of `judge run`, `ladder` and `batch` reports.
#include <cxxopts.hpp>

#include "judge/cli/command.h"
#include "judge/core/verdict.h"

namespace judge::cli {

// `judge profile`'s exit code when Nsight Compute could not measure (ncu missing, the counters
// restricted to administrators, no kernel measured): distinct from a verdict (README, docs/PROFILE.md).
inline constexpr int kProfilerUnavailableExit = int(ExitCode::kIncomplete);

void AddProfileOptions(cxxopts::Options& opts);
Expected<int> ProfileCommand(const Invocation& in);

// --profile for run, ladder and batch: information only, never a verdict, time or rank.
void AddProfileOption(cxxopts::Options& opts);

}  // namespace judge::cli

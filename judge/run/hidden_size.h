// SPDX-License-Identifier: MIT
#pragma once
// Some public solutions special-case the official performance size and run a slow path elsewhere.
// Each run adds, for every performance case, a twin at a size drawn from the run's secret (90-99%
// of the official size), and flags the official result when it is much faster per byte.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/run_report.h"
#include "judge/problem/problem.h"
#include "judge/testcase/testcase.h"

namespace judge {

// Appends the twins; cases that are not generated or have no scalar to vary get none.
void AddHiddenSizeCases(const Problem& problem, uint64_t run_secret, std::vector<Case>* cases);

// Why `twin` need not run, given the results so far (nullopt: it must, or it is no twin). A twin
// is there to keep the official time honest, so it is skipped when that time cannot rank: the
// official case was not accepted, or its one call alone outlasted the timing budget (a serial
// kernel's 2.7 s at N = 1e8), a speed at which special-casing the size gains nothing.
// A twin a rejected run does not need (twins guard ranked times) is skipped even before its
// official case ran, so its inputs are never prepared; `official` then says kNotYetRun.
struct SkippedTwin {
  static constexpr size_t kNotYetRun = size_t(-1);
  size_t official;  // index in the results, or kNotYetRun
  std::string why;
};
std::optional<SkippedTwin> TwinNotNeeded(const Case& twin, const std::vector<CaseResult>& results_so_far,
                                         const TimingPolicy& performance);
// Says so on the official case.
void NoteSkippedTwin(const SkippedTwin& skipped, std::vector<CaseResult>* results);

// Flags an official performance case whose GB/s beats its twin's by more than `ratio`.
void FlagSizeSpecialCasing(std::vector<CaseResult>* results, double ratio = 1.5);

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// Some public solutions special-case the official performance size and run a slow path elsewhere.
// Each run adds, for every performance case, a twin at a size drawn from the run's secret (90-99%
// of the official size), and flags the official result when it is much faster per byte.
#include <cstdint>
#include <vector>

#include "judge/problem/problem.h"
#include "judge/report/run_report.h"
#include "judge/testcase/testcase.h"

namespace judge {

inline constexpr const char* kHiddenSuffix = "_unpredictable_size";

// Appends the twins; cases that are not generated or have no scalar to vary get none.
void AddHiddenSizeCases(const Problem& problem, uint64_t run_secret, std::vector<Case>* cases);

// Flags an official performance case whose GB/s beats its twin's by more than `ratio`.
void FlagSizeSpecialCasing(std::vector<CaseResult>* results, double ratio = 1.5);

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// Options that several commands take with one meaning, declared and read in one place so that
// `run`, `ladder`, `compare` and `batch` cannot come to spell or default them differently.
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "judge/cli/command.h"
#include "judge/grade/grading_policy.h"
#include "judge/run/run_pipeline.h"

namespace judge::cli {

// --testcases and how to measure (--hot, --flush, --timing-processes).
void AddMeasureOptions(cxxopts::Options& opts);
// --cases, --call-timeout, --points and -q: what `run` and `batch` grade one submission with.
void AddJudgingOptions(cxxopts::Options& opts);
void AddPointsOption(cxxopts::Options& opts);
void AddStrictOption(cxxopts::Options& opts);

// The run a command that declares the measure options grades with: the shared options, the
// measure options, and whichever of run's own it declares (the others keep RunOptions' defaults).
Expected<RunOptions> ReadRunOptions(const Invocation& in);

// The runs of one ladder, comparison or batch share their expected outputs and start each
// other's workers ahead.
void ShareAcrossRuns(RunOptions& o);
void PrintStages(RunOptions& o);  // "compiling..." on stderr

// --points FILE, else the problem's grading.json, else the built-in defaults.
Expected<GradingPolicy> GradingPolicyFor(const Invocation& in);

std::vector<std::string> SplitCommas(const std::string& s);

}  // namespace judge::cli

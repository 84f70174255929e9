// SPDX-License-Identifier: MIT
#pragma once
// The commands of the table in main.cc: each declares its own options and reads them into a call
// of the engine, whose result it prints.
#include <cxxopts.hpp>

#include "judge/cli/command.h"

namespace judge::cli {

void AddRunOptions(cxxopts::Options& opts);
Expected<int> RunCommand(const Invocation& in);

Expected<int> BuildCommand(const Invocation& in);

void AddCompareOptions(cxxopts::Options& opts);
Expected<int> CompareCommand(const Invocation& in);

void AddLadderOptions(cxxopts::Options& opts);
Expected<int> LadderCommand(const Invocation& in);

void AddBatchOptions(cxxopts::Options& opts);
Expected<int> BatchCommand(const Invocation& in);

void AddMergeOptions(cxxopts::Options& opts);
Expected<int> MergeCommand(const Invocation& in);

Expected<int> ListCommand(const Invocation& in);

void AddCheckProblemOptions(cxxopts::Options& opts);
Expected<int> CheckProblemCommand(const Invocation& in);
Expected<int> VersionCommand(const Invocation& in);
Expected<int> WorkerCommand(const Invocation& in);

}  // namespace judge::cli

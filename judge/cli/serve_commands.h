// SPDX-License-Identifier: MIT
#pragma once
// `judge serve` and `judge token` (judge/serve): rows of the command table in main.cc.
#include <cxxopts.hpp>

#include "judge/cli/command.h"

namespace judge::cli {

void AddServeOptions(cxxopts::Options& opts);
Expected<int> ServeCommand(const Invocation& in);

void AddTokenOptions(cxxopts::Options& opts);
Expected<int> TokenCommand(const Invocation& in);

}  // namespace judge::cli

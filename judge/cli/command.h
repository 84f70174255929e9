// SPDX-License-Identifier: MIT
#pragma once
// The `judge` command line as one table of commands (ninja's tool table): the usage text, the
// option parsing and the argument checks are made from it, so a command cannot drift from the
// others in how it reads the shared options, looks up the root or rejects a stray argument.
// Commands only read options and print; the work is in judge/run, judge/batch and the rest.
#include <atomic>
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <cxxopts.hpp>

#include "judge/device/device.h"
#include "judge/util/expected.h"

namespace judge::cli {

// The options most commands take, read once into this.
struct SharedOptions {
  std::string problem;  // --problem; empty: each command asks ProblemFor (options.h)
  std::string root;     // --root, else found by judge::LocateRoot
  DeviceKind device = DeviceKind::kCuda;
  std::string arch;       // empty: the present GPU's
  std::string cache_dir;  // empty: --no-cache
  bool verbose = false;
};

struct Invocation {
  cxxopts::ParseResult options;       // the command's own and the shared ones
  std::vector<std::string> operands;  // the positional arguments, their count already checked
  SharedOptions shared;               // default values for a command without shared options
};

enum class Takes {
  kNothing,        // started exactly as it is (`__worker`): no parsing, no signal handlers
  kOwnOptions,     // only its own options and --help
  kSharedOptions,  // its own and the shared ones
};

inline constexpr size_t kAnyNumber = std::numeric_limits<size_t>::max();

struct Operands {
  std::string_view synopsis;  // "FILE", "A B", "[DIR]", "IN..." for the usage and --help
  size_t min = 0, max = 0;
  std::string_view missing;  // the error when fewer than `min` are given
};

struct Command {
  std::string_view name;
  std::string_view summary;  // one line, for the usage and --help; empty: hidden
  Takes takes;
  Operands operands;
  void (*add_options)(cxxopts::Options&);   // the command's own options; may be null
  Expected<int> (*run)(const Invocation&);  // the exit code; an error exits 2, 3 or 4 by its kind
};

// `judge <command> ...` with one of `commands`: the exit code.
int Main(std::span<const Command> commands, int argc, char** argv);

// Set by SIGINT/SIGTERM: the command stops and still writes what it has.
const std::atomic<bool>& Interrupted();

}  // namespace judge::cli

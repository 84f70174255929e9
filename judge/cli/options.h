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
// --side-by-side N: submissions judged at a time by ladder and check-problem (0, the default: as
// many as the machine holds).
void AddSideBySideOption(cxxopts::Options& opts);
Expected<int> ReadSideBySide(const cxxopts::ParseResult& args);

// The problem `sources` are for: --problem, else the `// problem:` line of the first of them that
// has one (a folder: the files in it, in name order), else kDefaultProblem (problem/sample_header.h).
// `judge batch` passes none: students' files do not choose what they are graded as.
std::string ProblemFor(const Invocation& in, const std::vector<std::string>& sources);

// The run a command that declares the measure options grades with: the shared options, the
// measure options, and whichever of run's own it declares (the others keep RunOptions' defaults);
// the problem is ProblemFor(in, sources).
Expected<RunOptions> ReadRunOptions(const Invocation& in, const std::vector<std::string>& sources);

// The runs of one ladder, comparison or batch share their expected outputs and start each
// other's workers ahead.
void ShareAcrossRuns(RunOptions& o);
void PrintStages(RunOptions& o);  // "compiling..." on stderr

// --points FILE, else the problem's grading.json, else the built-in defaults.
Expected<GradingPolicy> GradingPolicyFor(const Invocation& in, const std::string& problem);

std::vector<std::string> SplitCommas(const std::string& s);

// A number an option gives must lie in [lo, hi] (util/range's rule): "--jobs must be 0 to 1024,
// not -5". `unit` follows the range ("seconds"); empty for a count.
Status CheckRange(const std::string& option, double value, double lo, double hi, const std::string& unit = "");

// A file a file option names (--out FILE, --markdown FILE): checked before any work, written after
// it, whole (WriteFileAtomic). A run that stops on bad input thus costs no file its user had, and
// a report never lands on the file being graded.
struct OutputFile {
  std::string option;  // "out"
  std::string path;
};
// The file options among `options` that are given, each checked: a file name, not a folder, not
// one of `inputs` (the submissions read), not named by another option, in a folder that can be
// written (when the folder exists; a missing one is made).
Expected<std::vector<OutputFile>> OutputFiles(const cxxopts::ParseResult& args, const std::vector<std::string>& options,
                                              const std::vector<std::string>& inputs);
// An error names the option, the file and the operating system's reason.
Status WriteOutput(const OutputFile& file, const std::string& text);

}  // namespace judge::cli

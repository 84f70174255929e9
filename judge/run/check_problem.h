// SPDX-License-Identifier: MIT
#pragma once
// `judge check-problem NAME`: the problem author's tool (a problem package validator, as contest
// systems have). It holds a problem to what docs/PROBLEMS.md promises: the files load and agree,
// every case fits the memory of a 16 GB GPU, generators and the reference are deterministic, the
// reference is far more accurate than the tolerance it enforces, and every sample gets the verdict
// its header expects.
#include <functional>
#include <string>
#include <vector>

#include "judge/run/ladder.h"
#include "judge/run/run_pipeline.h"

namespace judge {

// The device memory a case takes in the worker: its buffers (every input in its variants and the
// fresh buffer, every output and working buffer, the guards) and the outputs a timed case holds on
// the device (the checked call's, and the kept fresh calls' slots). The total must fit
// kSmallGpuBytes; the host memory a run takes follows the buffers alone (ladder.h).
inline constexpr int64_t kSmallGpuBytes = int64_t(16) << 30;
struct CaseDeviceBytes {
  int64_t buffers = 0;
  int64_t held_outputs = 0;
  int64_t total() const { return buffers + held_outputs; }
};
CaseDeviceBytes DeviceBytesOfCase(const Problem& problem, const Case& c);

// On the host double, samples are judged, and generators and the reference checked, on the cases
// that move at most this much (a CPU's pace; CI has two cores).
inline constexpr int64_t kHostCaseBytes = int64_t(64) << 20;

// The reference's own error must stay under this share of the tolerance, element by element.
inline constexpr double kReferenceErrorShare = 0.01;

struct ProblemCheckLine {
  std::string what;  // "sizes", "reference", "sample 00_naive.cu"
  bool ok = false;
  std::string detail;
};

struct ProblemCheckReport {
  std::string problem;
  std::vector<ProblemCheckLine> lines;
  std::vector<LadderRung> samples;    // every sample's report: the problem's ladder, at no extra GPU time
  std::vector<std::string> left_out;  // samples a --samples list did not name: not a full check
  bool ok() const;
};

// Runs the checks with `base` (its problem, root, device and cache; its submission is replaced by
// each sample), on the samples `only` names (SelectSamples), or all of them when it is empty.
// `progress` hears each line as it is decided. `side_by_side` samples are judged at a time (0: as
// many as the machine holds, run/ladder.h SubmissionsSideBySide; the command's default is 1).
Expected<ProblemCheckReport> CheckProblem(const RunOptions& base,
                                          const std::function<void(const ProblemCheckLine&)>& progress = {},
                                          const std::vector<std::string>& only = {}, int side_by_side = 1);

// The files of `files` that `names` names, by file name or stem (03_tile64.cu or 03_tile64), in
// the order of `files`: an author checks the sample they are writing without judging the rest.
// A name that matches no file is bad input, and the message lists the samples there are.
Expected<std::vector<std::string>> SelectSamples(const std::vector<std::string>& files,
                                                 const std::vector<std::string>& names);

// The sample files of `problem` for `device`: <samples>/*.cu, or <samples>/host/*.cc for the host
// double, in name order.
std::vector<std::string> SampleFiles(const std::string& root, const Problem& problem, DeviceKind device);

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// `judge ladder`: grades every submission in a folder, in name order, and tells the article's
// story: per version the verdict, the median at each performance size, GB/s, % of the memory's
// peak, and the speedup over the previous version.
#include <ostream>
#include <string>
#include <vector>

#include "judge/core/run_report.h"
#include "judge/run/run_pipeline.h"

namespace judge {

struct LadderRung {
  std::string name;
  RunReport report;
  std::string article;  // the sample header's `// article:` claim (problem/sample_header.h)
};

// Runs `base` once per file (base.submission is replaced).
Expected<std::vector<LadderRung>> ClimbLadder(const RunOptions& base, const std::vector<std::string>& files);

// The files a ladder grades: *.cu (or *.cc for the host double) in `dir`, sorted by name.
std::vector<std::string> LadderFiles(const std::string& dir, DeviceKind device);

void WriteLadderText(const std::vector<LadderRung>& rungs, std::ostream& out);
void WriteLadderMarkdown(const std::vector<LadderRung>& rungs, std::ostream& out);

}  // namespace judge

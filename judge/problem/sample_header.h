// SPDX-License-Identifier: MIT
#pragma once
// What a sample says about itself in its first comment lines (docs/PROBLEMS.md, Samples):
//   // problem: histogram        which problem it is for (so `judge run FILE` needs no --problem)
//   // expect: WA               the verdict `judge check-problem` holds it to (AC when absent)
//   // expect-detail: expected   a piece of the report's details that verdict must come with
//   // article: ...              what the sample's source article claims for this version (and
//                                measured, on its GPU); repeated lines continue it. `ladder
//                                --profile` prints it beside the judge's diagnosis
// Only the comment block the file opens with counts: a line further down that happens to start
// "// expect:" is code's comment, not the sample's header.
#include <string>

#include "judge/util/expected.h"

namespace judge {

// Without --problem, a file that names none is judged as this problem (the README's first line).
inline constexpr const char* kDefaultProblem = "reduction";

struct SampleHeader {
  std::string problem;
  std::string expect;  // empty: none given
  std::string expect_detail;
  std::string article;  // empty: none given
};

SampleHeader ParseSampleHeader(const std::string& text);
Expected<SampleHeader> ReadSampleHeader(const std::string& path);

}  // namespace judge

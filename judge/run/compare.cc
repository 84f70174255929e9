// SPDX-License-Identifier: MIT
#include "judge/run/compare.h"

namespace judge {
namespace {

// One side's median on the case, or why there is none.
Expected<double> TimeOnce(const RunOptions& base, const std::string& file, std::string* case_name) {
  RunOptions o = base;
  o.submission = file;
  o.case_filters = {case_name->empty() ? std::string("performance") : *case_name};
  auto report = RunSubmission(o);
  if (!report) return report.error();
  for (const auto& c : report->cases) {
    if (c.kind != CaseKind::kPerformance || (!case_name->empty() && c.name != *case_name)) continue;
    if (c.verdict != Verdict::kAccepted)
      return MakeError(ErrorCode::kUsage, file + " is not accepted on " + c.name + " (" +
                                              std::string(VerdictShort(c.verdict)) + ": " + c.detail +
                                              "); only correct submissions are compared");
    *case_name = c.name;
    return c.FigureMs();
  }
  return MakeError(ErrorCode::kUsage, "no performance case " + *case_name + " in the testcases");
}

}  // namespace

Expected<Comparison> CompareSubmissions(const RunOptions& base, const std::string& a, const std::string& b,
                                        const std::string& case_name, int rounds) {
  Comparison cmp;
  cmp.case_name = case_name;
  for (int r = 0; r < rounds; ++r) {
    if (base.interrupted && base.interrupted->load()) break;
    // Alternate which side goes first, so neither always follows the other.
    const std::string& first = r % 2 == 0 ? a : b;
    const std::string& second = r % 2 == 0 ? b : a;
    auto t1 = TimeOnce(base, first, &cmp.case_name);
    if (!t1) return t1.error();
    auto t2 = TimeOnce(base, second, &cmp.case_name);
    if (!t2) return t2.error();
    cmp.a_ms.push_back(r % 2 == 0 ? *t1 : *t2);
    cmp.b_ms.push_back(r % 2 == 0 ? *t2 : *t1);
    if (base.on_stage)
      base.on_stage("round " + std::to_string(r + 1) + ": " + std::to_string(cmp.a_ms.back()) + " ms vs " +
                    std::to_string(cmp.b_ms.back()) + " ms");
  }
  cmp.estimate = EstimateRatio(cmp.a_ms, cmp.b_ms);
  return cmp;
}

}  // namespace judge

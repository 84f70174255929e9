// SPDX-License-Identifier: MIT
// Gradescope's results.json: one test per case worth one point when accepted, the report's summary
// as the top-level output, and the primary performance case's median on the leaderboard (lower is
// better). Gradescope has no per-test time field, so times go into each test's output.
#include "judge/report/reporter.h"

namespace judge {

Json GradescopeResults(const RunReport& r) {
  Json tests = Json::array();
  int score = 0;
  for (const auto& c : r.cases) {
    bool passed = c.verdict == Verdict::kAccepted;
    score += passed;
    std::string output = std::string(VerdictShort(c.verdict)) + " (" + std::string(VerdictLong(c.verdict)) + ")";
    if (!c.detail.empty()) output += ": " + c.detail;
    if (c.event.count) output += "\nmedian " + FormatMs(c.event.median) + " over " + std::to_string(c.event.count) + " timed calls";
    tests.push_back({{"name", c.name + " (" + FormatScalars(c.scalars) + ")"}, {"score", passed ? 1 : 0}, {"max_score", 1},
                     {"status", passed ? "passed" : "failed"}, {"output", output}, {"visibility", "visible"}});
  }
  std::string summary = "verdict " + std::string(VerdictShort(r.verdict)) + " (" + std::string(VerdictLong(r.verdict)) +
                        "), " + std::to_string(score) + "/" + std::to_string(r.cases.size()) + " cases accepted";
  if (r.build.attempted && !r.build.ok) summary += "\n\ncompile error:\n" + r.build.log;
  if (!r.message.empty()) summary += "\n" + r.message;
  Json j = {{"score", score}, {"max_score", int(r.cases.size())}, {"execution_time", r.seconds},
            {"output", summary}, {"visibility", "visible"}, {"tests", tests}};
  const CaseResult* perf = r.PrimaryPerformanceCase();
  Json board = Json::array();
  if (perf && perf->verdict == Verdict::kAccepted && perf->flags.empty() && perf->event.count)
    board.push_back({{"name", perf->name + " median (us)"}, {"value", perf->audit.honest_median_ms * 1e3}, {"order", "asc"}});
  j["leaderboard"] = board;
  return j;
}

void GradescopeReporter::Write(const RunReport& report, std::ostream& out) const {
  out << GradescopeResults(report).dump(2) << "\n";
}

}  // namespace judge

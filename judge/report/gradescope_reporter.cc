// SPDX-License-Identifier: MIT
// Gradescope's results.json: one test per case worth its share of the correctness points when
// accepted, one "performance" test for the speed points (GradingPolicy), the report's summary as
// the top-level output, and the primary performance case's median on the leaderboard (lower is
// better). Gradescope has no per-test time field, so times go into each test's output.
#include "judge/report/reporter.h"

namespace judge {

Json GradescopeResults(const RunReport& r, const GradingPolicy& policy) {
  Score score = ScoreRun(r, policy);
  Json tests = Json::array();
  int accepted = 0;
  for (size_t i = 0; i < r.cases.size(); ++i) {
    const CaseResult& c = r.cases[i];
    bool passed = c.verdict == Verdict::kAccepted;
    accepted += passed;
    std::string output = std::string(VerdictShort(c.verdict)) + " (" + std::string(VerdictLong(c.verdict)) + ")";
    if (!c.detail.empty()) output += ": " + c.detail;
    if (c.event.count)
      output += "\nmedian " + FormatMs(c.FigureMs()) + " over " + std::to_string(c.event.count) + " timed calls";
    tests.push_back({{"name", c.name + " (" + FormatScalars(c.scalars) + ")"},
                     {"score", score.cases[i].points},
                     {"max_score", score.cases[i].max_points},
                     {"status", passed ? "passed" : "failed"},
                     {"output", output},
                     {"visibility", "visible"}});
  }
  if (score.performance_max > 0)
    tests.push_back({{"name", "performance"},
                     {"score", score.performance},
                     {"max_score", score.performance_max},
                     {"status", score.performance > 0 ? "passed" : "failed"},
                     {"output", score.performance_note},
                     {"visibility", "visible"}});
  std::string summary = "verdict " + std::string(VerdictShort(r.verdict)) + " (" + std::string(VerdictLong(r.verdict)) +
                        "), " + std::to_string(accepted) + "/" + std::to_string(r.cases.size()) + " cases accepted";
  if (r.build.attempted && !r.build.ok) summary += "\n\ncompile error:\n" + r.build.log;
  if (!r.message.empty()) summary += "\n" + r.message;
  Json j = {{"score", score.total()}, {"max_score", score.max_total()}, {"execution_time", r.seconds},
            {"output", summary},      {"visibility", "visible"},        {"tests", tests}};
  const CaseResult* perf = r.PrimaryPerformanceCase();
  Json board = Json::array();
  if (perf && perf->verdict == Verdict::kAccepted && perf->flags.empty() && perf->event.count)
    board.push_back({{"name", perf->name + " median (us)"}, {"value", perf->FigureMs() * 1e3}, {"order", "asc"}});
  j["leaderboard"] = board;
  return j;
}

Json GradescopeNotGraded(const NotGradedSubmission& s, double max_score) {
  // No score anywhere (the format makes it optional): a 0 would read as the student's result.
  return {{"max_score", max_score},
          {"output", "NOT GRADED: " + s.name + " was not graded by the judge (" + s.reason +
                         "). This is not your kernel's result; the course staff regrades it."},
          {"visibility", "visible"},
          {"tests", Json::array({{{"name", "not graded"},
                                  {"max_score", max_score},
                                  {"status", "failed"},
                                  {"output", s.reason},
                                  {"visibility", "visible"}}})}};
}

void GradescopeReporter::Write(const RunReport& report, std::ostream& out) const {
  out << GradescopeResults(report, policy_).dump(2) << "\n";
}

}  // namespace judge

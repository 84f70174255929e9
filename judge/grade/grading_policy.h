// SPDX-License-Identifier: MIT
#pragma once
// How a run turns into points (Gradescope's score, the batch's scores.csv). Documented in
// docs/GRADING.md; the problem ships a default (problems/<name>/grading.json), --points replaces it.
//   correctness_points  split equally over the cases; a case earns its share when accepted
//   performance_points  earned only when every case is accepted and the performance case's figure
//                       is not flagged; the share grows linearly with `metric` from `zero_at` to
//                       `full_at` (metric: pct_of_ceiling, or gbps, or median_us where lower is better)
#include <string>
#include <vector>

#include "judge/core/run_report.h"
#include "judge/util/expected.h"
#include "judge/util/json_fields.h"

namespace judge {

struct GradingPolicy {
  double correctness_points = 80;
  double performance_points = 20;
  std::string performance_case;  // empty: the first performance case
  std::string metric = "pct_of_ceiling";
  double zero_at = 30, full_at = 90;
};

struct CasePoints {
  std::string name;
  double points = 0, max_points = 0;
};

struct Score {
  std::vector<CasePoints> cases;
  double performance = 0, performance_max = 0;
  double metric_value = 0;       // the performance metric's value (0: not measured)
  std::string performance_note;  // why the performance points are what they are
  double total() const;
  double max_total() const;
};

Expected<GradingPolicy> LoadGradingPolicy(const std::string& path);
Expected<GradingPolicy> GradingPolicyFromJson(const Json& j, const std::string& where);
Json GradingPolicyToJson(const GradingPolicy& p);
Score ScoreRun(const RunReport& report, const GradingPolicy& policy);

}  // namespace judge

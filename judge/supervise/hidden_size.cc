// SPDX-License-Identifier: MIT
#include "judge/supervise/hidden_size.h"

#include <string>

#include "judge/report/reporter.h"

namespace judge {

void AddHiddenSizeCases(const Problem& problem, uint64_t run_secret, std::vector<Case>* cases) {
  const Param* scalar = nullptr;
  for (const Param& p : problem.params)
    if (!p.is_buffer) { scalar = &p; break; }
  if (!scalar) return;
  std::vector<Case> twins;
  uint64_t draw = run_secret;
  for (const Case& c : *cases) {
    if (!c.IsPerformance()) continue;
    bool generated = true;
    for (const auto& [name, spec] : c.inputs) generated &= spec.generate.has_value();
    if (!generated) continue;
    draw = draw * 6364136223846793005ULL + 1442695040888963407ULL;
    int64_t n = c.scalars.at(scalar->name);
    int64_t twin_n = std::max<int64_t>(scalar->min, n - n / 100 - int64_t((draw >> 33) % uint64_t(std::max<int64_t>(1, n / 12))));
    Case twin = c;
    twin.name = c.name + kHiddenSuffix;
    twin.scalars[scalar->name] = twin_n;
    twin.note = "size drawn for this run only (" + FormatScalars(twin.scalars) + "), so it cannot be special-cased";
    for (auto& [name, spec] : twin.inputs) spec.generate->seed ^= draw;
    if (problem.ValidateScalars(twin.scalars).ok()) twins.push_back(std::move(twin));
  }
  cases->insert(cases->end(), twins.begin(), twins.end());
}

void FlagSizeSpecialCasing(std::vector<CaseResult>* results, double ratio) {
  for (CaseResult& official : *results) {
    if (official.kind != CaseKind::kPerformance || official.gbps <= 0) continue;
    for (const CaseResult& twin : *results) {
      if (twin.name != official.name + kHiddenSuffix || twin.gbps <= 0) continue;
      if (official.gbps > twin.gbps * ratio)
        official.flags.push_back("special-cased size: " + std::to_string(int(official.gbps)) + " GB/s at " +
                                 FormatScalars(official.scalars) + " but " + std::to_string(int(twin.gbps)) +
                                 " GB/s at the unpredictable " + FormatScalars(twin.scalars));
    }
  }
}

}  // namespace judge

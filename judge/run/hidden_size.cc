// SPDX-License-Identifier: MIT
#include "judge/run/hidden_size.h"

#include <cstdio>
#include <string>

#include "judge/report/reporter.h"
#include "judge/rules/run_verdict.h"

namespace judge {

void AddHiddenSizeCases(const Problem& problem, uint64_t run_secret, std::vector<Case>* cases) {
  std::vector<const Param*> sizes;  // the scalars a twin varies; parameters (a bin count) stay
  for (const Param& p : problem.params)
    if (p.IsIntScalar() && p.unpredictable) sizes.push_back(&p);
  if (sizes.empty()) return;
  std::vector<Case> twins;
  uint64_t draw = run_secret;
  for (const Case& c : *cases) {
    if (!c.IsPerformance()) continue;
    bool generated = true;
    for (const auto& [name, spec] : c.inputs) generated &= spec.generate.has_value();
    if (!generated) continue;
    Case twin = c;
    // Each size 88-99% of the official one, on its own draw, a multiple of what the problem asks.
    for (const Param* scalar : sizes) {
      draw = draw * 6364136223846793005ULL + 1442695040888963407ULL;
      int64_t n = c.scalars.at(scalar->name);
      int64_t twin_n = n - n / 100 - int64_t((draw >> 33) % uint64_t(std::max<int64_t>(1, n / 12)));
      twin_n -= twin_n % scalar->multiple_of;
      twin.scalars[scalar->name] = std::max<int64_t>(scalar->min, twin_n);
    }
    twin.name = c.name + std::string(kHiddenSuffix);
    twin.note = "size drawn for this run only (" + FormatScalars(twin.scalars) + "), so it cannot be special-cased";
    for (auto& [name, spec] : twin.inputs) spec.generate->seed ^= draw;
    if (problem.CheckSizes(twin.scalars).ok()) twins.push_back(std::move(twin));
  }
  cases->insert(cases->end(), twins.begin(), twins.end());
}

std::optional<SkippedTwin> TwinNotNeeded(const Case& twin, const std::vector<CaseResult>& results_so_far,
                                         const TimingPolicy& performance) {
  const auto official_name = OfficialNameOfTwin(twin.name);
  if (!official_name) return std::nullopt;
  std::vector<Verdict> verdicts;
  for (const CaseResult& r : results_so_far) verdicts.push_back(r.verdict);
  const auto rejected = FirstRejection(verdicts);
  // Asked ahead of the official case too (whether to prepare the twin's inputs): a rejected run
  // needs no twin whatever its official case does.
  size_t official_index = SkippedTwin::kNotYetRun;
  for (size_t i = 0; i < results_so_far.size(); ++i)
    if (results_so_far[i].name == *official_name) official_index = i;
  if (rejected &&
      (official_index == SkippedTwin::kNotYetRun || results_so_far[official_index].verdict == Verdict::kAccepted))
    return SkippedTwin{official_index, "the run was already rejected (" + results_so_far[*rejected].name + ": " +
                                           std::string(VerdictShort(results_so_far[*rejected].verdict)) + ")"};
  for (size_t i = 0; i < results_so_far.size(); ++i) {
    const CaseResult& official = results_so_far[i];
    if (official.name != *official_name) continue;
    if (official.verdict != Verdict::kAccepted)
      return SkippedTwin{i, "the official case was not accepted (" + std::string(VerdictShort(official.verdict)) + ")"};
    if (official.event.count == 1 && official.wall.max >= performance.budget_seconds * 1e3) {
      char buf[160];
      std::snprintf(
          buf, sizeof buf,
          "its one call took %.2f s, over the %.2g s timing budget, where special-casing the size gains nothing",
          official.wall.max / 1e3, performance.budget_seconds);
      return SkippedTwin{i, buf};
    }
    return std::nullopt;
  }
  return std::nullopt;
}

void NoteSkippedTwin(const SkippedTwin& skipped, std::vector<CaseResult>* results) {
  if (skipped.official >= results->size()) return;  // its official case did not run (not selected)
  std::string& detail = (*results)[skipped.official].detail;
  detail += (detail.empty() ? "" : "; ") + std::string("the unpredictable-size twin was not run: ") + skipped.why;
}

void FlagSizeSpecialCasing(std::vector<CaseResult>* results, double ratio) {
  for (CaseResult& official : *results) {
    if (official.kind != CaseKind::kPerformance || official.gbps <= 0) continue;
    for (const CaseResult& twin : *results) {
      if (twin.name != official.name + std::string(kHiddenSuffix) || twin.gbps <= 0) continue;
      if (official.gbps > twin.gbps * ratio)
        official.flags.push_back("special-cased size: " + std::to_string(int(official.gbps)) + " GB/s at " +
                                 FormatScalars(official.scalars) + " but " + std::to_string(int(twin.gbps)) +
                                 " GB/s at the unpredictable " + FormatScalars(twin.scalars));
    }
  }
}

}  // namespace judge

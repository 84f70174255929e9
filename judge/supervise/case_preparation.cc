// SPDX-License-Identifier: MIT
#include "judge/supervise/case_preparation.h"

#include <future>

namespace judge {
namespace {

uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

bool AllGenerated(const Case& c) {
  for (const auto& [name, spec] : c.inputs)
    if (!spec.generate) return false;
  return !c.inputs.empty();
}

}  // namespace

std::optional<ExpectedOutputs> ExpectedMemo::Find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

void ExpectedMemo::Remember(const std::string& key, const ExpectedOutputs& outputs) {
  size_t values = 0;
  for (const auto& o : outputs) values += o.size();
  std::lock_guard<std::mutex> lock(mu_);
  if (values <= (1 << 20)) entries_[key] = outputs;  // large outputs would cost more memory than time
}

size_t ExpectedMemo::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

uint64_t VariantSeed(uint64_t seed, uint64_t run_secret, int k) { return Mix(Mix(seed ^ run_secret) + uint64_t(k)); }

Expected<PreparedCase> PrepareCase(const Problem& problem, const Case& c, const Reference& reference,
                                   uint64_t run_secret, int variants, ExpectedMemo* memo) {
  PreparedCase prepared;
  prepared.spec = c;
  int count = AllGenerated(c) ? std::max(1, variants) : 1;
  std::vector<Case> cases;
  for (int k = 0; k < count; ++k) {
    Case variant = c;
    if (k > 0)
      for (auto& [name, spec] : variant.inputs) spec.generate->seed = VariantSeed(spec.generate->seed, run_secret, k);
    prepared.variant_inputs.push_back(variant.inputs);
    cases.push_back(std::move(variant));
  }
  // The variants' references run side by side: each generates its inputs on every core, but the
  // reference itself is one thread (a 1e8-element float64 sum is most of a large case's preparation).
  auto expect = [&](const Case& variant) -> Expected<ExpectedOutputs> {
    Json key = {{"problem", problem.name}, {"scalars", variant.scalars}};
    for (const auto& [name, spec] : variant.inputs) key["inputs"][name] = InputSpecToJson(spec);
    if (memo)
      if (auto known = memo->Find(key.dump())) return *known;
    auto expected = reference.Compute(problem, variant);
    if (expected && memo) memo->Remember(key.dump(), *expected);
    return expected;
  };
  std::vector<std::future<Expected<ExpectedOutputs>>> pending;
  for (const Case& variant : cases) pending.push_back(std::async(std::launch::async, expect, std::cref(variant)));
  std::optional<Error> failure;
  for (auto& p : pending) {
    auto expected = p.get();
    if (!expected) failure = expected.error();
    else prepared.expected.push_back(std::move(*expected));
  }
  if (failure) return *failure;
  return prepared;
}

}  // namespace judge

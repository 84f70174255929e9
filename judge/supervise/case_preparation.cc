// SPDX-License-Identifier: MIT
#include "judge/supervise/case_preparation.h"

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
  for (int k = 0; k < count; ++k) {
    Case variant = c;
    if (k > 0)
      for (auto& [name, spec] : variant.inputs) spec.generate->seed = VariantSeed(spec.generate->seed, run_secret, k);
    Json key = {{"problem", problem.name}, {"scalars", variant.scalars}};
    for (const auto& [name, spec] : variant.inputs) key["inputs"][name] = InputSpecToJson(spec);
    std::optional<ExpectedOutputs> known = memo ? memo->Find(key.dump()) : std::nullopt;
    if (!known) {
      auto expected = reference.Compute(problem, variant);
      if (!expected) return expected.error();
      if (memo) memo->Remember(key.dump(), *expected);
      prepared.expected.push_back(std::move(*expected));
    } else {
      prepared.expected.push_back(*known);
    }
    prepared.variant_inputs.push_back(variant.inputs);
  }
  return prepared;
}

}  // namespace judge

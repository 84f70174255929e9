// SPDX-License-Identifier: MIT
#include "judge/check/case_preparation.h"

#include <algorithm>
#include <cmath>
#include <future>

#include "judge/util/sha256.h"

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

SharedExpected ExpectedMemo::Find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : it->second;
}

void ExpectedMemo::Remember(const std::string& key, SharedExpected outputs) {
  size_t values = 0;
  for (const auto& o : outputs->values) values += o.size();
  for (const auto& b : outputs->bounds) values += b.size();
  std::lock_guard<std::mutex> lock(mu_);
  // Past the budget, later cases compute their references again: memory would cost more than time.
  if (values_ + values > max_values_ || entries_.count(key)) return;
  values_ += values;
  entries_[key] = std::move(outputs);
}

Expected<SharedExpected> ExpectedMemo::FindOrCompute(const std::string& key,
                                                     const std::function<Expected<ExpectedOutputs>()>& compute) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    computed_.wait(lock, [&] { return !computing_.count(key); });
    if (auto it = entries_.find(key); it != entries_.end()) return it->second;
    computing_.insert(key);
  }
  // Unmarked however it ends: a failed or unremembered (over budget) answer lets a waiter compute.
  struct Done {
    ExpectedMemo& memo;
    const std::string& key;
    ~Done() {
      {
        std::lock_guard<std::mutex> lock(memo.mu_);
        memo.computing_.erase(key);
      }
      memo.computed_.notify_all();
    }
  } done{*this, key};
  auto expected = compute();
  if (!expected) return expected.error();
  auto shared = std::make_shared<const ExpectedOutputs>(std::move(*expected));
  Remember(key, shared);
  return shared;
}

size_t ExpectedMemoBudget(int64_t host_available_bytes) {
  const size_t share = size_t(std::max<int64_t>(host_available_bytes, 0) / kExpectedMemoShareOfHost) / sizeof(double);
  return std::max(share, kExpectedMemoValues);
}

size_t ExpectedMemo::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

uint64_t VariantSeed(uint64_t seed, uint64_t run_secret, int k) { return Mix(Mix(seed ^ run_secret) + uint64_t(k)); }

uint64_t FreshSeed(uint64_t run_secret, const std::string& case_name, uint64_t request, int call, size_t input) {
  std::string hex = Sha256Hex("fresh\n" + std::to_string(run_secret) + "\n" + case_name + "\n" +
                              std::to_string(request) + "\n" + std::to_string(call) + "\n" + std::to_string(input));
  return std::stoull(hex.substr(0, 16), nullptr, 16);
}

Case FreshCase(const PreparedCase& c, const std::vector<std::string>& input_names, const std::vector<uint64_t>& seeds) {
  Case fresh = c.spec;
  fresh.inputs = c.variant_inputs.at(0);
  for (size_t i = 0; i < input_names.size() && i < seeds.size(); ++i) {
    InputSpec& spec = fresh.inputs.at(input_names[i]);
    if (spec.generate) spec.generate->seed = seeds[i];
  }
  return fresh;
}

double AnswerNorm(const ExpectedOutputs& outputs) {
  double squares = 0;
  for (const auto& o : outputs.values)
    for (double v : o) squares += v * v;
  return std::sqrt(squares);
}

double SizeDistance(double hidden_norm, double published_norm) {
  return published_norm == 0 ? 0 : std::fabs(std::log(std::max(hidden_norm, 1e-300) / published_norm));
}

double SizeDistance(const ExpectedOutputs& hidden, const ExpectedOutputs& published) {
  return SizeDistance(AnswerNorm(hidden), AnswerNorm(published));
}

Expected<PreparedCase> PrepareCase(const Problem& problem, const Case& c, const Reference& reference,
                                   uint64_t run_secret, int variants, ExpectedMemo* memo) {
  PreparedCase prepared;
  prepared.spec = c;
  const int count = AllGenerated(c) ? std::max(1, variants) : 1;
  auto expect = [&](Case variant) -> Expected<SharedExpected> {
    Json key = {{"problem", problem.name}, {"scalars", variant.scalars}, {"real_scalars", variant.real_scalars}};
    for (const auto& [name, spec] : variant.inputs) key["inputs"][name] = InputSpecToJson(spec);
    auto compute = [&] { return reference.Compute(problem, variant); };
    if (memo) return memo->FindOrCompute(key.dump(), compute);
    auto computed = compute();
    if (!computed) return computed.error();
    return SharedExpected(std::make_shared<const ExpectedOutputs>(std::move(*computed)));
  };
  auto draw = [&](int k, int attempt) {
    Case variant = c;
    if (k > 0)
      for (auto& [name, spec] : variant.inputs)
        spec.generate->seed = VariantSeed(spec.generate->seed, run_secret, k + count * attempt);
    return variant;
  };
  std::vector<Case> cases(static_cast<size_t>(count));
  std::vector<SharedExpected> expected(static_cast<size_t>(count));
  std::vector<double> miss(size_t(count), 0);  // how far each kept draw is from the published size (log)
  // Each round computes the draws still wanted side by side: each generates its inputs on every
  // core, but the reference itself is one thread (a 1e8-element float64 sum is most of a large
  // case's preparation). A hidden draw is kept when its answer is about as large as the published
  // one's: a sum that happens to cancel to near zero shrinks the relative tolerance, and a larger
  // one can pass 2^24 where float atomics stop being exact, so a secret draw would otherwise make
  // the case harder than its published form and give a correct float-atomic kernel a random WA.
  double published_norm = 0;  // of variant 0, which comes first in round 0: one pass, not one per draw
  std::vector<int> wanted(static_cast<size_t>(count));
  for (int k = 0; k < count; ++k) wanted[size_t(k)] = k;
  for (int attempt = 0; attempt < kVariantDraws && !wanted.empty(); ++attempt) {
    std::vector<std::future<Expected<SharedExpected>>> pending;
    std::vector<Case> drawn;
    for (int k : wanted) drawn.push_back(draw(k, attempt));
    for (const Case& variant : drawn) pending.push_back(std::async(std::launch::async, expect, variant));
    std::vector<int> again;
    for (size_t i = 0; i < wanted.size(); ++i) {
      auto result = pending[i].get();
      if (!result) return result.error();
      const int k = wanted[i];
      if (k == 0) published_norm = AnswerNorm(**result);
      const double off = k == 0 ? 0 : SizeDistance(AnswerNorm(**result), published_norm);
      if (attempt == 0 || off < miss[size_t(k)]) {
        expected[size_t(k)] = std::move(*result);
        cases[size_t(k)] = std::move(drawn[i]);
        miss[size_t(k)] = off;
      }
      if (miss[size_t(k)] > std::log(kVariantMagnitudeRatio)) again.push_back(k);
    }
    wanted = std::move(again);
  }
  for (int k = 0; k < count; ++k) prepared.variant_inputs.push_back(cases[size_t(k)].inputs);
  prepared.expected = std::move(expected);
  return prepared;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// Turns a testcase into what the supervisor needs: several variants of each generated input
// (variant 0 is the published data; the others are seeded from a per-run secret the worker never
// receives) and the expected outputs of every variant, computed here by the reference.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "judge/check/reference.h"
#include "judge/testcase/testcase.h"

namespace judge {

// Expected outputs are GBs for a large case in float64, and the runs of a ladder share them
// through the memo: held, never copied.
using SharedExpected = std::shared_ptr<const ExpectedOutputs>;

struct PreparedCase {
  Case spec;
  std::vector<std::map<std::string, InputSpec>> variant_inputs;  // [variant][input name]
  std::vector<SharedExpected> expected;                          // [variant], never null
};

// Expected outputs already computed in this process, by problem, scalars and input specs: a ladder
// or a comparison judges many submissions on the same cases with the same secret.
// Shared by the runs of a ladder or a batch, whose GPU runners work in parallel: thread-safe.
// It holds at most `max_values` doubles; the first ones in stay. A problem's expected outputs in
// all their variants are GBs (prefix_sum's: about 14 GB with their bounds), and every one the memo
// cannot hold is computed again by each submission judged (seconds each for a 2^26 scan or a
// matmul), so the budget is a share of the host memory available (ExpectedMemoBudget), at least
// kExpectedMemoValues (2 GiB).
inline constexpr size_t kExpectedMemoValues = size_t(256) << 20;
inline constexpr int64_t kExpectedMemoShareOfHost = 6;    // a sixth of MemAvailable
size_t ExpectedMemoBudget(int64_t host_available_bytes);  // in doubles; 0 bytes: unknown
class ExpectedMemo {
 public:
  explicit ExpectedMemo(size_t max_values = kExpectedMemoValues) : max_values_(max_values) {}
  SharedExpected Find(const std::string& key) const;  // null: not remembered
  void Remember(const std::string& key, SharedExpected outputs);
  // The remembered outputs, else `compute`'s, remembered. Runs judged side by side reach the same
  // case together: one computes, the others wait for its answer rather than compute it again.
  Expected<SharedExpected> FindOrCompute(const std::string& key,
                                         const std::function<Expected<ExpectedOutputs>()>& compute);
  size_t size() const;
  int64_t budget_bytes() const { return int64_t(max_values_ * sizeof(double)); }

 private:
  const size_t max_values_;
  mutable std::mutex mu_;
  std::condition_variable computed_;
  std::map<std::string, SharedExpected> entries_;
  std::set<std::string> computing_;  // keys some thread is computing now
  size_t values_ = 0;
};

// A hidden variant's answer is kept within this factor of the published one's (L2 norm over the
// outputs); after kVariantDraws draws the closest one is kept.
inline constexpr double kVariantMagnitudeRatio = 2.0;
inline constexpr int kVariantDraws = 8;

// Literal inputs get one variant (they are small and public anyway); generated ones `variants`,
// the hidden ones drawn to be about as well conditioned as the published one. `memo` may be null.
Expected<PreparedCase> PrepareCase(const Problem& problem, const Case& c, const Reference& reference,
                                   uint64_t run_secret, int variants, ExpectedMemo* memo = nullptr);

// A seed for variant k >= 1 that cannot be predicted without the run secret (a redraw of variant k
// uses k + variants x attempt).
uint64_t VariantSeed(uint64_t seed, uint64_t run_secret, int k);

// The seed of input `input` of a fresh timed call (request: which of the run's requests, call: its
// index): SHA-256 of all of them, so knowing any number of seeds predicts no other.
uint64_t FreshSeed(uint64_t run_secret, const std::string& case_name, uint64_t request, int call, size_t input);

// How far an answer is in size from the published one's (log of the ratio of their L2 norms; 0 when
// the published answer is all zeros): a draw further than log(kVariantMagnitudeRatio) is harder to
// get right than the published data, and is not held against a submission.
double SizeDistance(const ExpectedOutputs& hidden, const ExpectedOutputs& published);
// The same from the answers' L2 norms (AnswerNorm), for a published answer measured once.
double AnswerNorm(const ExpectedOutputs& outputs);
double SizeDistance(double hidden_norm, double published_norm);

// The case as a fresh call saw it: the published inputs with their generators' seeds replaced.
Case FreshCase(const PreparedCase& c, const std::vector<std::string>& input_names, const std::vector<uint64_t>& seeds);

}  // namespace judge

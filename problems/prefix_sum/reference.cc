// SPDX-License-Identifier: MIT
// Reference for the inclusive scan: output[i] = sum_{j<=i} input[j], accumulated in judge_real
// (float64; long double in check-problem's second build), NOT rounded to float32: the rounded value
// could differ by one float ulp between the two builds wherever the exact sum sits near a rounding
// midpoint, and the check gains nothing from it (a correctly rounded float32 answer is within
// 2^-24 * |E_i| of the exact one, which the allowance below already covers).
//
// The allowance (args->bounds) is the error model of a correct float32 scan, stated in the
// statement: element i may err by 2^-24 * sqrt(i + 1) * S_i, S_i = sum_{j<=i} |input[j]|, the
// probabilistic bound of a sum of i + 1 float32 terms in any order (Higham & Mary). The judge adds
// atol + rtol * |E_i| from problem.json.
//
// Cost: O(N), two passes over fixed chunks of 2^20 elements on up to 16 threads. The chunks, not the
// threads, fix the order of the additions, so the bits do not depend on the machine's core count.
// Float64 is far more accurate than the tolerance: its own error, about 2^-53 * sqrt(i + 1) * S_i,
// is 2^-29 of the model term.
#include <stdint.h>

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

#include "../reference_abi.h"

namespace {

constexpr int64_t kChunk = int64_t(1) << 20;
constexpr double kUnitRoundoff = 0x1.0p-24;  // float32, round to nearest

// Runs work(c) for every chunk c in [0, chunks), spread over up to 16 threads.
template <typename F>
void ForEachChunk(int64_t chunks, F work) {
  int64_t threads = std::min<int64_t>({int64_t(std::max(1u, std::thread::hardware_concurrency())), 16, chunks});
  std::vector<std::thread> pool;
  for (int64_t t = 1; t < threads; ++t)
    pool.emplace_back([=, &work] {
      for (int64_t c = t; c < chunks; c += threads) work(c);
    });
  for (int64_t c = 0; c < chunks; c += threads) work(c);
  for (auto& th : pool) th.join();
}

}  // namespace

extern "C" int judge_reference(const JudgeReferenceArgs* args) {
  if (args->num_inputs != 1 || args->num_outputs != 1 || args->num_scalars != 1) return 1;
  if (args->bounds == nullptr || args->bounds[0] == nullptr) return 2;  // problem.json asks for reference_bound
  const int64_t n = args->scalars[0];
  if (n < 1 || args->input_counts[0] != n || args->output_counts[0] != n) return 3;
  const float* x = static_cast<const float*>(args->inputs[0]);
  double* expected = args->outputs[0];
  double* bound = args->bounds[0];

  const int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<judge_real> sum(size_t(chunks), 0), magnitude(size_t(chunks), 0);
  std::vector<char> finite(size_t(chunks), 1);
  ForEachChunk(chunks, [&](int64_t c) {
    judge_real s = 0, m = 0;
    for (int64_t i = c * kChunk, end = std::min(n, i + kChunk); i < end; ++i) {
      s += x[i];
      m += std::fabs(x[i]);
      if (!std::isfinite(x[i])) finite[size_t(c)] = 0;
    }
    sum[size_t(c)] = s;
    magnitude[size_t(c)] = m;
  });
  if (std::find(finite.begin(), finite.end(), 0) != finite.end()) return 4;  // testcases hold finite values

  // Exclusive prefix of the chunk totals: what each chunk starts from.
  judge_real carry = 0, carry_magnitude = 0;
  for (int64_t c = 0; c < chunks; ++c) {
    judge_real s = sum[size_t(c)], m = magnitude[size_t(c)];
    sum[size_t(c)] = carry;
    magnitude[size_t(c)] = carry_magnitude;
    carry += s;
    carry_magnitude += m;
  }

  ForEachChunk(chunks, [&](int64_t c) {
    judge_real s = sum[size_t(c)], m = magnitude[size_t(c)];
    for (int64_t i = c * kChunk, end = std::min(n, i + kChunk); i < end; ++i) {
      s += x[i];
      m += std::fabs(x[i]);
      expected[i] = double(s);
      bound[i] = kUnitRoundoff * std::sqrt(double(i + 1)) * double(m);
    }
  });
  return 0;
}

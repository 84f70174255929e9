// SPDX-License-Identifier: MIT
// Reference for the histogram: histogram[b] = #{i : input[i] == b}, counted in int64 (exact; the
// check is exact). A value outside [0, num_bins) breaks the statement's constraint: the reference
// fails (an IE naming this file) rather than guess what a submission should do with it. Large
// inputs are counted by threads into private histograms, summed at the end.
#include <stdint.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "../reference_abi.h"

namespace {

// Counts input[begin, end) into counts (num_bins zeros on entry); false on a value out of range.
bool Count(const int32_t* input, int64_t begin, int64_t end, int64_t num_bins, int64_t* counts) {
  bool ok = true;
  for (int64_t i = begin; i < end; ++i) {
    const int64_t v = input[i];
    if (v < 0 || v >= num_bins) {
      ok = false;
      continue;
    }
    ++counts[v];
  }
  return ok;
}

}  // namespace

extern "C" int judge_reference(const JudgeReferenceArgs* args) {
  if (args->num_inputs != 1 || args->num_outputs != 1 || args->num_scalars != 2) return 1;
  const int64_t n = args->scalars[0], num_bins = args->scalars[1];
  if (n < 1 || num_bins < 1 || args->input_counts[0] != n || args->output_counts[0] != num_bins) return 2;
  const int32_t* input = static_cast<const int32_t*>(args->inputs[0]);
  const int64_t kChunk = int64_t(1) << 22;
  unsigned hw = std::thread::hardware_concurrency();
  const int64_t threads = std::min<int64_t>({hw ? int64_t(hw) : 1, 16, (n + kChunk - 1) / kChunk});
  std::vector<int64_t> counts(size_t(threads * num_bins), 0);
  std::vector<char> ok(size_t(threads), 1);
  const int64_t per = (n + threads - 1) / threads;
  auto work = [&](int64_t t) {
    const int64_t begin = t * per, end = std::min(n, begin + per);
    if (begin < end) ok[size_t(t)] = Count(input, begin, end, num_bins, &counts[size_t(t * num_bins)]);
  };
  if (threads <= 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (int64_t t = 0; t < threads; ++t) pool.emplace_back(work, t);
    for (auto& th : pool) th.join();
  }
  for (char k : ok)
    if (!k) return 3;
  for (int64_t b = 0; b < num_bins; ++b) {
    int64_t total = 0;
    for (int64_t t = 0; t < threads; ++t) total += counts[size_t(t * num_bins + b)];
    args->outputs[0][b] = static_cast<double>(total);
  }
  return 0;
}

// SPDX-License-Identifier: MIT
// Reference for vector addition: C[i] = A[i] + B[i] in judge_real (float64). The sum of two floats
// is exact in float64 unless their magnitudes differ by more than about 2^28, and within 2^-53 of
// it relatively even then: far inside the 1e-5 tolerance, which exists only for a correct float32
// add's own rounding (at most half an ulp, 2^-24 relatively). Large N is split over threads: the
// judge runs this for three input variants of each performance case and for checked calls.
#include <stdint.h>

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

#include "../reference_abi.h"

namespace {

// False when an input is NaN or infinite: no valid input is, so the testcase is broken.
bool AddRange(const float* a, const float* b, double* c, int64_t begin, int64_t end) {
  bool finite = true;
  for (int64_t i = begin; i < end; ++i) {
    finite &= std::isfinite(a[i]) && std::isfinite(b[i]);
    c[i] = static_cast<double>(judge_real(a[i]) + judge_real(b[i]));
  }
  return finite;
}

}  // namespace

extern "C" int judge_reference(const JudgeReferenceArgs* args) {
  if (args->num_inputs != 2 || args->num_outputs != 1 || args->num_scalars != 1) return 1;
  const int64_t n = args->scalars[0];
  if (n < 1 || args->input_counts[0] != n || args->input_counts[1] != n || args->output_counts[0] != n) return 2;
  const float* a = static_cast<const float*>(args->inputs[0]);
  const float* b = static_cast<const float*>(args->inputs[1]);
  double* c = args->outputs[0];
  const int64_t kChunk = int64_t(1) << 22;
  unsigned hw = std::thread::hardware_concurrency();
  int64_t threads = std::min<int64_t>({hw ? int64_t(hw) : 1, 16, (n + kChunk - 1) / kChunk});
  if (threads <= 1) return AddRange(a, b, c, 0, n) ? 0 : 3;
  std::vector<std::thread> pool;
  std::vector<char> finite(size_t(threads), 1);
  const int64_t per = (n + threads - 1) / threads;
  for (int64_t t = 0; t < threads; ++t) {
    int64_t begin = t * per, end = std::min(n, begin + per);
    if (begin < end) pool.emplace_back([=, &finite] { finite[size_t(t)] = AddRange(a, b, c, begin, end); });
  }
  for (auto& th : pool) th.join();
  for (char f : finite)
    if (!f) return 3;
  return 0;
}

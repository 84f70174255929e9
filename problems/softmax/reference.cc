// SPDX-License-Identifier: MIT
// Reference for the row-wise softmax of a rows x cols row-major matrix:
//   output[i][j] = exp(x_ij - m_i) / sum_k exp(x_ik - m_i),   m_i = max_k x_ik.
// Computed in judge_real (float64): the shift by the row maximum keeps every exp in (0, 1] (no
// overflow), the sum of cols <= 262144 such terms lies in [1, cols] and carries a relative error
// below cols * 2^-53 < 3e-11, far below the 1e-5 the judge allows.
//
// The allowance (statement.md, "Checking"): element (i, j) passes when
//   |output_ij - ref_ij| <= atol + rtol * |ref_ij| + 2^-23 * sqrt(cols) * ref_ij
// The last term is the error of a float32 row sum of cols positive terms (Higham & Mary's
// probabilistic bound u * sqrt(n), taken twice, u = 2^-24): the sum's relative error carries over
// to every element of the row. This file writes it into args->bounds.
//
// Rows are independent: large inputs are split over std::thread workers by rows (or, for a few
// long rows, one row per worker); each row is computed by one thread in a fixed order, so the
// result is the same bits on every run.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

#include "../reference_abi.h"

namespace {

// One row; `e` is the worker's scratch for the exponentials (kept in judge_real until divided).
void Row(const float* x, double* y, double* bound, int64_t cols, std::vector<judge_real>& e) {
  float m = x[0];
  for (int64_t j = 1; j < cols; ++j) m = std::max(m, x[j]);
  e.resize(size_t(cols));
  judge_real sum = 0;
  for (int64_t j = 0; j < cols; ++j) {
    e[size_t(j)] = std::exp(judge_real(x[j]) - judge_real(m));  // x - m rounded once, in judge_real
    sum += e[size_t(j)];
  }
  const double model = std::ldexp(std::sqrt(double(cols)), -23);  // 2 * u * sqrt(cols), u = 2^-24
  for (int64_t j = 0; j < cols; ++j) {
    y[j] = double(e[size_t(j)] / sum);
    if (bound) bound[j] = model * y[j];
  }
}

}  // namespace

extern "C" int judge_reference(const JudgeReferenceArgs* args) {
  if (args->num_inputs != 1 || args->num_outputs != 1 || args->num_scalars != 2) return 1;
  const int64_t rows = args->scalars[0], cols = args->scalars[1];
  if (rows < 1 || cols < 1 || rows > 1000000 || cols > 262144) return 2;
  if (args->input_counts[0] != rows * cols || args->output_counts[0] != rows * cols) return 3;
  const float* x = static_cast<const float*>(args->inputs[0]);
  double* y = args->outputs[0];
  double* bound = args->bounds ? args->bounds[0] : nullptr;
  for (int64_t i = 0; i < rows * cols; ++i)
    if (!std::isfinite(x[i])) return 4;  // inputs are finite by the problem's value range

  // Tasks of about 64K elements (whole rows); one thread for small inputs.
  const int64_t rows_per_task = std::max<int64_t>(1, (int64_t(1) << 16) / cols);
  const int64_t tasks = (rows + rows_per_task - 1) / rows_per_task;
  std::atomic<int64_t> next{0};
  auto work = [&] {
    std::vector<judge_real> e;
    for (int64_t t; (t = next.fetch_add(1)) < tasks;) {
      const int64_t r1 = std::min(rows, (t + 1) * rows_per_task);
      for (int64_t r = t * rows_per_task; r < r1; ++r)
        Row(x + r * cols, y + r * cols, bound ? bound + r * cols : nullptr, cols, e);
    }
  };
  unsigned threads = rows * cols < (int64_t(1) << 20) ? 1u : std::max(1u, std::thread::hardware_concurrency());
  threads = unsigned(std::min<int64_t>(threads, std::min<int64_t>(tasks, 64)));
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i) {
    try {
      pool.emplace_back(work);
    } catch (...) {  // no more threads to be had: the ones running (and this one) do the rest
      break;
    }
  }
  work();
  for (auto& t : pool) t.join();
  return 0;
}

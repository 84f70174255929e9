// SPDX-License-Identifier: MIT
// Fixture: a problem-supplied checker. The reference writes the kept values sorted (the rest of
// the output zero) and their count; judge_check sorts the submission's kept values and compares:
// order does not matter, which no element-wise check can say.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "../reference_abi.h"

extern "C" int judge_reference(const JudgeReferenceArgs* args) {
  if (args->num_inputs != 1 || args->num_outputs != 2 || args->num_real_scalars != 1) return 1;
  const float* in = static_cast<const float*>(args->inputs[0]);
  const float threshold = float(args->real_scalars[0]);
  std::vector<double> kept;
  for (int64_t i = 0; i < args->input_counts[0]; ++i)
    if (in[i] > threshold) kept.push_back(in[i]);
  std::sort(kept.begin(), kept.end());
  for (int64_t i = 0; i < args->output_counts[0]; ++i) args->outputs[0][i] = i < int64_t(kept.size()) ? kept[i] : 0;
  args->outputs[1][0] = double(kept.size());
  return 0;
}

extern "C" int judge_check(JudgeCheckArgs* args) {
  const JudgeReferenceArgs* p = args->problem;
  const int expected_count = int(p->outputs[1][0]);
  const int got_count = static_cast<const int*>(args->got[1])[0];
  if (got_count != expected_count) {
    args->worst_output = 1;
    args->worst_index = 0;
    args->expected_value = expected_count;
    args->got_value = got_count;
    std::snprintf(args->message, sizeof args->message, "count is %d, expected %d", got_count, expected_count);
    return 0;
  }
  const float* got = static_cast<const float*>(args->got[0]);
  std::vector<float> kept(got, got + got_count);
  std::sort(kept.begin(), kept.end());
  for (int i = 0; i < got_count; ++i)
    if (double(kept[size_t(i)]) != p->outputs[0][i]) {
      args->worst_output = 0;
      args->worst_index = i;
      args->expected_value = p->outputs[0][i];
      args->got_value = kept[size_t(i)];
      std::snprintf(args->message, sizeof args->message,
                    "the kept values differ from the expected ones (sorted, value %d is %g, expected %g)", i,
                    double(kept[size_t(i)]), p->outputs[0][i]);
      return 0;
    }
  return 1;
}

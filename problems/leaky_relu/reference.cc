// SPDX-License-Identifier: MIT
// Leaky ReLU: x, or alpha * x rounded to float32 (one float32 multiply is correctly rounded, so a
// correct kernel gets exactly this value).
#include <cmath>

#include "../reference_abi.h"

extern "C" int judge_reference(const JudgeReferenceArgs* args) {
  if (args->num_inputs != 1 || args->num_outputs != 1 || args->num_real_scalars != 1) return 1;
  if (args->input_counts[0] != args->output_counts[0]) return 2;
  const float* in = static_cast<const float*>(args->inputs[0]);
  const judge_real alpha = judge_real(float(args->real_scalars[0]));
  for (int64_t i = 0; i < args->input_counts[0]; ++i) {
    if (!std::isfinite(in[i])) return 3;
    const judge_real x = in[i];
    args->outputs[0][i] = x > 0 ? double(x) : double(float(alpha * x));
  }
  return 0;
}

// SPDX-License-Identifier: MIT
// Fixture: an inout buffer and a float scalar. The product rounded to float32, as a GPU's is.
#include "../reference_abi.h"

extern "C" int judge_reference(const JudgeReferenceArgs* args) {
  if (args->num_inputs != 1 || args->num_outputs != 1 || args->num_real_scalars != 1) return 1;
  const float* data = static_cast<const float*>(args->inputs[0]);
  const float alpha = float(args->real_scalars[0]);
  for (int64_t i = 0; i < args->output_counts[0]; ++i) args->outputs[0][i] = double(float(data[i] * alpha));
  return 0;
}

// SPDX-License-Identifier: MIT
// Fixture: an input solve() may overwrite.
#include "../reference_abi.h"

extern "C" int judge_reference(const JudgeReferenceArgs* args) {
  if (args->num_inputs != 1 || args->num_outputs != 1) return 1;
  const int* in = static_cast<const int*>(args->inputs[0]);
  judge_real sum = 0;
  for (int64_t i = 0; i < args->input_counts[0]; ++i) sum += in[i];
  args->outputs[0][0] = double(sum);
  return 0;
}

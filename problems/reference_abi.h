// SPDX-License-Identifier: MIT
#pragma once
// The C ABI between the judge and a problem's reference (problems/<name>/reference.cc). The judge
// compiles the reference with the host compiler and calls it in the judge process (it is trusted
// problem code, never submission code). Buffers follow the order of problem.json's signature.
#include <stdint.h>

struct JudgeReferenceArgs {
  int32_t num_inputs;
  const void* const* inputs;    // host copies of the input buffers, in their dtype
  const int64_t* input_counts;  // elements per input
  int32_t num_outputs;
  double* const* outputs;  // expected values, one double per output element
  const int64_t* output_counts;
  int32_t num_scalars;
  const int64_t* scalars;  // scalar parameters, in signature order
};

// Returns 0 on success; anything else is reported as a judge fault (IE).
extern "C" int judge_reference(const JudgeReferenceArgs* args);

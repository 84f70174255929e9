// SPDX-License-Identifier: MIT
#pragma once
// The C ABI between the judge and a problem's reference (problems/<name>/reference.cc). The judge
// compiles the reference with the host compiler and calls it in a child of the judge process (it
// is trusted problem code, never submission code). Buffers follow the order of problem.json's
// signature: `inputs` are the input and inout buffers, `outputs` the output and inout buffers.
#include <stdint.h>

// What a reference accumulates in. `judge check-problem` builds the reference a second time with
// -DJUDGE_REAL="long double" and compares: the difference is the reference's own error, which must
// be far below the tolerance it enforces (docs/PROBLEMS.md).
#ifndef JUDGE_REAL
#define JUDGE_REAL double
#endif
typedef JUDGE_REAL judge_real;

struct JudgeReferenceArgs {
  int32_t num_inputs;
  const void* const* inputs;    // host copies of the input and inout buffers, in their dtype
  const int64_t* input_counts;  // elements per input
  int32_t num_outputs;
  double* const* outputs;  // expected values, one double per element of each output and inout buffer
  const int64_t* output_counts;
  int32_t num_scalars;
  const int64_t* scalars;  // the int scalars, in signature order
  int32_t num_real_scalars;
  const double* real_scalars;  // the float scalars, in signature order
  // With "reference_bound": true in problem.json's check, parallel to outputs: the reference writes
  // each element's allowance, added to atol + rtol * |expected| (an error model, stated in the
  // statement). Null otherwise.
  double* const* bounds;
};

// Returns 0 on success; anything else is reported as a judge fault (IE).
extern "C" int judge_reference(const JudgeReferenceArgs* args);

// A problem-supplied checker ("check": {"kind": "reference"}), for outputs whose order does not
// matter. The judge fills the inputs, `expected` and `got`; the checker fills the rest.
struct JudgeCheckArgs {
  const JudgeReferenceArgs* problem;  // inputs and scalars; its outputs hold the expected values
  const void* const* got;             // the submission's outputs (output and inout buffers), in their dtype
  // Filled by the checker, about the worst element it found:
  double tolerance_used;  // the share of its tolerance it used: over 1 fails; 0 when all is exact
  int32_t worst_output;   // which output buffer
  int64_t worst_index;    // which element (-1: none)
  double expected_value, got_value;
  char message[256];  // one line for the report when the output fails, e.g. "value 3.5 is missing"
};

// Returns 1 when the outputs pass, 0 when they fail, < 0 when the checker itself failed (IE).
extern "C" int judge_check(JudgeCheckArgs* args);

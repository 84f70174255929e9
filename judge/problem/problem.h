// SPDX-License-Identifier: MIT
#pragma once
// A problem is data: problems/<name>/problem.json describes the entry point's signature, the
// tolerance, the limits and the timing policy; problems/<name>/reference.cc computes expected
// results on the host. Adding a problem means adding a folder, not changing the judge.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "judge/util/expected.h"
#include "judge/util/size_expr.h"

namespace judge {

enum class DType { kFloat32, kInt32 };
std::string_view DTypeName(DType t);   // "float32"
std::string_view DTypeCType(DType t);  // "float"
size_t DTypeSize(DType t);
std::optional<DType> DTypeFromName(std::string_view name);

enum class Role { kInput, kOutput };

struct Param {
  std::string name;
  bool is_buffer = true;     // device pointer; otherwise an int32 scalar passed by value
  Role role = Role::kInput;  // buffers only
  DType dtype = DType::kFloat32;
  std::string size_expr;                       // buffers only: element count, e.g. "N"
  int64_t min = 0, max = 0;                    // scalars only: allowed range
  std::optional<double> value_min, value_max;  // input buffers: allowed element range
};

struct Tolerance {
  double atol = 1e-5;
  double rtol = 1e-5;
};

struct Limits {
  double call_seconds = 10;       // one solve() call, wall clock
  double setup_seconds = 120;     // worker start, allocation, input upload for one case
  double compile_seconds = 180;   // nvcc
  double run_seconds = 900;       // the whole run; cases not started by then are TLE
  double host_memory_mb = 16384;  // the worker's resident memory (its inputs included)
  double output_kb = 1024;        // what the submission may print (stdout + stderr)
};

// How many calls to time and when to stop (the measurement issue refines this).
struct TimingPolicy {
  int warmup_calls = 1;
  int min_samples = 3;
  int max_samples = 20;
  double budget_seconds = 0.25;  // of solve() time per case, after min_samples
  double target_noise = 0.005;   // stop early when the median's relative noise is below this
};

struct Problem {
  std::string name;
  std::string title;
  std::string dir;
  std::string statement_path;
  std::string entry_point = "solve";
  std::vector<Param> params;
  Tolerance tolerance;
  Limits limits;
  TimingPolicy functional_timing;
  TimingPolicy performance_timing;
  std::string reference_source;  // absolute path of reference.cc
  std::string reference_description;
  std::vector<ScalarValues> performance_sizes;
  // Outputs start at zero instead of NaN poison (compatibility with lenient platforms).
  bool zero_init_outputs = false;
  int input_variants = 3;  // differently seeded inputs rotated across calls (generated cases)

  std::string Declaration() const;  // "void solve(const float* input, float* output, int N)"
  const Param* FindParam(const std::string& name) const;
  Expected<int64_t> ElementCount(const Param& p, const ScalarValues& scalars) const;
  // Bytes the problem must move at minimum: every input read once, every output written once.
  Expected<int64_t> MinimumBytes(const ScalarValues& scalars) const;
  Status ValidateScalars(const ScalarValues& scalars) const;
};

// Loads problems/<name>/problem.json below `problems_root`.
Expected<Problem> LoadProblem(const std::string& problems_root, const std::string& name);
std::vector<std::string> ListProblems(const std::string& problems_root);

}  // namespace judge

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

// What an element of `t` can hold: a float32 at most FLT_MAX in magnitude, an int32 within
// [-2^31, 2^31 - 1]; never NaN or an infinity. One rule for problem.json's value ranges and every
// testcase value (1e39 would otherwise reach the submission as inf, and the reference as 1e39).
bool DTypeHolds(DType t, double v);
std::string DTypeLimits(DType t);  // for errors: "float32 holds magnitudes up to 3.40282e+38"

// The range a limit may take, in problem.json and on the command line alike. A time limit past a
// day is none (and far past it, the deadline arithmetic overflowed into instant timeouts); the
// worker itself needs tens of MiB before any submission runs.
struct LimitRange {
  double min, max;
  const char* unit;
};
inline constexpr LimitRange kSecondsRange{0.001, 86400, "seconds"};
inline constexpr LimitRange kHostMemoryMbRange{64, 16 << 20, "MiB"};
inline constexpr LimitRange kOutputKbRange{1, 1 << 20, "KiB"};

// input: const, checked unchanged after every call; output: poisoned before every call and
// checked; inout: holds the input's data when solve() starts and is checked as an output.
enum class Role { kInput, kOutput, kInOut };

// A bound on an input's values: a number, or an integer expression over the int scalars
// ("num_bins - 1"), evaluated per case.
struct ValueBound {
  double value = 0;
  std::string expr;  // empty: `value`
  Expected<double> At(const ScalarValues& scalars) const;
};

struct Param {
  std::string name;
  bool is_buffer = true;     // device pointer; otherwise a scalar passed by value
  Role role = Role::kInput;  // buffers only
  DType dtype = DType::kFloat32;
  std::string size_expr;                           // buffers only: element count, e.g. "N"
  bool writable = false;                           // inputs: solve() may overwrite (restored before every call)
  int64_t min = 0, max = 0;                        // int scalars: allowed range
  int64_t multiple_of = 1;                         // int scalars: every value a multiple of this
  bool unpredictable = true;                       // int scalars: varied in the unpredictable-size twins
  double real_min = 0, real_max = 0;               // float scalars: allowed range
  std::optional<ValueBound> value_min, value_max;  // input and inout buffers: allowed element range
  std::string where;                               // "problems/p/problem.json: signature[0]", for errors found later

  bool IsIntScalar() const { return !is_buffer && dtype == DType::kInt32; }
  bool IsRealScalar() const { return !is_buffer && dtype == DType::kFloat32; }
  bool HoldsInputData() const { return is_buffer && role != Role::kOutput; }  // needs an input spec
  bool IsChecked() const { return is_buffer && role != Role::kInput; }        // an output the judge checks
  bool SubmissionMayWrite() const { return is_buffer && (role != Role::kInput || writable); }
};

struct Tolerance {
  double atol = 1e-5;
  double rtol = 1e-5;
};

// How an output passes (problem.json's "check"; docs/PROBLEMS.md).
enum class CheckKind { kTolerance, kExact, kReference };
std::string_view CheckKindName(CheckKind kind);  // "tolerance" | "exact" | "reference"
struct CheckSpec {
  CheckKind kind = CheckKind::kTolerance;
  Tolerance tolerance;           // kTolerance
  bool reference_bound = false;  // kTolerance: the reference adds an allowance per element
  std::string Describe() const;  // "|got - expected| <= 1e-05 + 1e-05 * |expected|"
};

// What one call must move and compute, at the least (problem.json's "roofline").
struct Work {
  int64_t bytes_read = 0, bytes_written = 0;
  double flops = 0;
  int64_t bytes() const { return bytes_read + bytes_written; }
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
  CheckSpec check;
  // Expressions over the int scalars; empty: every input and inout buffer read once, every output
  // and inout buffer written once, no flops.
  std::string bytes_read_expr, bytes_written_expr, flops_expr;
  std::vector<std::string> libraries;  // linked into submissions (-l<name>), e.g. cublas
  std::string samples_dir;             // relative to the root (default submissions/<name>)
  Limits limits;
  TimingPolicy functional_timing;
  TimingPolicy performance_timing;
  std::string reference_source;  // absolute path of reference.cc
  std::string reference_description;
  std::vector<ScalarValues> performance_sizes;
  bool HasRealScalars() const;
  // Outputs start at zero instead of NaN poison (compatibility with lenient platforms).
  bool zero_init_outputs = false;
  int input_variants = 3;  // differently seeded inputs rotated across calls (generated cases)

  std::string Declaration() const;  // "void solve(const float* input, float* output, int N)"
  const Param* FindParam(const std::string& name) const;
  Expected<int64_t> ElementCount(const Param& p, const ScalarValues& scalars) const;
  // What a call must move and compute at these sizes (the roofline's inputs).
  Expected<Work> WorkAt(const ScalarValues& scalars) const;
  // Bytes the problem must move at minimum (WorkAt's bytes read and written).
  Expected<int64_t> MinimumBytes(const ScalarValues& scalars) const;
  // The int scalars in range (and multiples where asked), the float ones in `reals` likewise;
  // every scalar given, none unknown.
  Status ValidateScalars(const ScalarValues& scalars, const RealValues& reals = {}) const;
  // Scalars this problem accepts, at which every buffer's size is a count (no division by zero,
  // no overflow, not negative). Errors in a size name problem.json and the field.
  Status CheckSizes(const ScalarValues& scalars) const;
};

// Loads problems/<name>/problem.json below `problems_root`.
Expected<Problem> LoadProblem(const std::string& problems_root, const std::string& name);
std::vector<std::string> ListProblems(const std::string& problems_root);

}  // namespace judge

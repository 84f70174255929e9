// SPDX-License-Identifier: MIT
#pragma once
// Testcases are JSON files under testcases/<problem>/. Small inputs are literal arrays; large ones
// are generator specs (distribution, range, seed) materialized on demand, identically in the
// judge (for the reference) and in the worker (for the device).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "judge/problem/problem.h"
#include "judge/util/json_fields.h"

namespace judge {

struct GeneratorSpec {
  std::string dist = "uniform";  // uniform | uniform_int | normal | constant | arange
  double low = 0, high = 1;      // uniform, uniform_int (inclusive for uniform_int)
  double mean = 0, stddev = 1;   // normal
  double value = 0;              // constant
  double start = 0, step = 1;    // arange
  uint64_t seed = 1;
  std::vector<double> head;  // overrides the first elements (e.g. one large value first)
  // Contention: each element is hot_value with probability hot_fraction (0: never), drawn from a
  // stream of its own, else drawn from `dist`.
  double hot_value = 0, hot_fraction = 0;
};

struct InputSpec {
  std::optional<std::vector<double>> values;  // literal
  std::optional<GeneratorSpec> generate;
};

enum class CaseKind { kExample, kFunctional, kEdge, kPerformance, kStress };
std::string_view CaseKindName(CaseKind k);

struct Case {
  std::string name;
  CaseKind kind = CaseKind::kFunctional;
  std::string note;  // why this case exists, shown in verbose output
  ScalarValues scalars;
  RealValues real_scalars;                  // the float scalars, if the problem has any
  std::map<std::string, InputSpec> inputs;  // by buffer name: every input and inout buffer
  std::string source_file;
  bool IsPerformance() const { return kind == CaseKind::kPerformance; }
};

// A case name is 1 to kMaxCaseNameLength letters, digits, '_', '-' and '.': it is printed in
// tables, on terminals (no escape sequences) and in XML attributes, and --cases matches pieces of
// it. The one rule for a name the judge accepts.
inline constexpr size_t kMaxCaseNameLength = 64;
Status CheckCaseName(const std::string& name);

// Literal values travel to the worker in the case request's JSON header, which the protocol bounds
// (kMaxHeaderBytes, 1 MiB): a case holds at most this many, each at most 25 characters there
// (protocol_test holds the two to each other). Larger inputs are generators.
inline constexpr size_t kMaxLiteralValues = 32768;

Expected<InputSpec> ParseInputSpec(const Json& j, const JsonContext& ctx);
Json InputSpecToJson(const InputSpec& spec);

// Loads one file and validates each case against the problem (names, sizes, ranges).
Expected<std::vector<Case>> LoadTestcaseFile(const std::string& path, const Problem& problem);
// Every *.json in testcases/<problem>/, sorted by file name, in file order within a file.
Expected<std::vector<Case>> LoadTestcaseDir(const std::string& dir, const Problem& problem);

// The cases a run takes, in file order. A filter is a kind (`edge`), a piece of a case name, or
// `all`; no filter or `all` means every case but the opt-in `stress` kind, which runs only when
// named (`all,stress` is everything). `all` is a keyword, never a piece of a name: a name such as
// float_stall_20m_ones does not make `all` select one case.
std::vector<Case> SelectCases(std::vector<Case> cases, const std::vector<std::string>& filters);

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/testcase/testcase.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>

namespace judge {
namespace fs = std::filesystem;

std::string_view CaseKindName(CaseKind k) {
  switch (k) {
    case CaseKind::kExample: return "example";
    case CaseKind::kFunctional: return "functional";
    case CaseKind::kEdge: return "edge";
    case CaseKind::kPerformance: return "performance";
    case CaseKind::kStress: return "stress";
  }
  return "functional";
}

namespace {

const std::set<std::string> kDistributions = {"uniform", "uniform_int", "normal", "constant", "arange"};

Expected<std::vector<double>> ParseNumbers(const Json& arr, const JsonContext& ctx) {
  std::vector<double> out;
  out.reserve(arr.size());
  for (size_t i = 0; i < arr.size(); ++i) {
    if (!arr[i].is_number()) return ctx.Index(i).Fail("expected a number, got " + JsonTypeName(arr[i]));
    out.push_back(arr[i].get<double>());
  }
  return out;
}

Expected<GeneratorSpec> ParseGenerator(const Json& j, const JsonContext& ctx) {
  GeneratorSpec g;
  JUDGE_TRY(RejectUnknownKeys(
      j, {"dist", "low", "high", "mean", "stddev", "value", "start", "step", "seed", "head", "hot"}, ctx));
  auto dist = GetString(j, "dist", ctx);
  if (!dist) return dist.error();
  if (!kDistributions.count(*dist))
    return ctx.Child("dist").Fail("unknown distribution \"" + *dist +
                                  "\" (expected one of uniform, uniform_int, normal, constant, arange)");
  g.dist = *dist;
  auto seed = GetInteger(j, "seed", ctx, 1);
  if (!seed) return seed.error();
  g.seed = uint64_t(*seed);
  struct {
    const char* key;
    double* dst;
    bool required;
  } fields[] = {{"low", &g.low, g.dist == "uniform" || g.dist == "uniform_int"},
                {"high", &g.high, g.dist == "uniform" || g.dist == "uniform_int"},
                {"mean", &g.mean, false},
                {"stddev", &g.stddev, false},
                {"value", &g.value, g.dist == "constant"},
                {"start", &g.start, false},
                {"step", &g.step, false}};
  for (auto& f : fields) {
    auto v = f.required ? GetNumber(j, f.key, ctx) : GetNumber(j, f.key, ctx, *f.dst);
    if (!v) return v.error();
    *f.dst = *v;
  }
  if (g.low > g.high) return ctx.Fail("low > high");
  if (g.dist == "uniform_int" && (std::floor(g.low) != g.low || std::floor(g.high) != g.high))
    return ctx.Fail("uniform_int draws integers from low to high inclusive: give integer bounds, not " +
                    Json(g.low).dump() + " and " + Json(g.high).dump());
  if (g.stddev < 0) return ctx.Child("stddev").Fail("must not be negative, got " + Json(g.stddev).dump());
  if (j.contains("hot")) {
    auto hot = GetObject(j, "hot", ctx);
    if (!hot) return hot.error();
    JsonContext hc = ctx.Child("hot");
    JUDGE_TRY(RejectUnknownKeys(**hot, {"value", "fraction"}, hc));
    auto value = GetNumber(**hot, "value", hc);
    auto fraction = GetNumber(**hot, "fraction", hc);
    if (!value) return value.error();
    if (!fraction) return fraction.error();
    if (!(*fraction >= 0 && *fraction <= 1))
      return hc.Child("fraction").Fail("a probability, 0 to 1, not " + Json(*fraction).dump());
    if (g.dist == "normal") return hc.Fail("\"hot\" goes with uniform, uniform_int, constant or arange");
    g.hot_value = *value;
    g.hot_fraction = *fraction;
  }
  if (j.contains("head")) {
    auto head = GetArray(j, "head", ctx);
    if (!head) return head.error();
    auto nums = ParseNumbers(**head, ctx.Child("head"));
    if (!nums) return nums.error();
    g.head = *nums;
  }
  return g;
}

// The values a generator can produce, for checking against the problem's constraints.
std::pair<double, double> GeneratorRange(const GeneratorSpec& g, int64_t count) {
  double lo = 0, hi = 0;
  if (g.dist == "uniform" || g.dist == "uniform_int") {
    lo = g.low;
    hi = g.high;
  } else if (g.dist == "constant") {
    lo = hi = g.value;
  } else if (g.dist == "arange") {
    double last = g.start + g.step * double(std::max<int64_t>(count - 1, 0));
    lo = std::min(g.start, last);
    hi = std::max(g.start, last);
  } else {
    lo = g.mean - 7 * g.stddev;
    hi = g.mean + 7 * g.stddev;
  }
  for (double h : g.head) {
    lo = std::min(lo, h);
    hi = std::max(hi, h);
  }
  if (g.hot_fraction > 0) {
    lo = std::min(lo, g.hot_value);
    hi = std::max(hi, g.hot_value);
  }
  return {lo, hi};
}

// Every value the buffer would hold must be one its dtype can hold (problem.h's DTypeHolds).
Status CheckHeld(const std::vector<double>& values, const Param& p, const JsonContext& ctx) {
  for (size_t i = 0; i < values.size(); ++i)
    if (!DTypeHolds(p.dtype, values[i]))
      return ctx.Index(i).Fail(Json(values[i]).dump() + " does not fit " + p.name + ": " + DTypeLimits(p.dtype));
  return Status::Ok();
}

Status ValidateInput(const InputSpec& spec, const Param& p, int64_t count, const ScalarValues& scalars,
                     const JsonContext& ctx) {
  if (spec.values && int64_t(spec.values->size()) != count)
    return ctx.Child("values").Fail("has " + std::to_string(spec.values->size()) + " elements but " + p.name +
                                    " needs " + p.size_expr + " = " + std::to_string(count));
  if (spec.generate && int64_t(spec.generate->head.size()) > count)
    return ctx.Child("generate.head").Fail("longer than the buffer (" + std::to_string(count) + ")");
  if (spec.values) JUDGE_TRY(CheckHeld(*spec.values, p, ctx.Child("values")));
  if (spec.generate) JUDGE_TRY(CheckHeld(spec.generate->head, p, ctx.Child("generate").Child("head")));
  double lo = 0, hi = 0;
  if (spec.values && !spec.values->empty()) {
    auto [mn, mx] = std::minmax_element(spec.values->begin(), spec.values->end());
    lo = *mn;
    hi = *mx;
  } else if (spec.generate) {
    std::tie(lo, hi) = GeneratorRange(*spec.generate, count);
    if (!DTypeHolds(p.dtype, lo) || !DTypeHolds(p.dtype, hi))
      return ctx.Child("generate")
          .Fail("its values reach [" + Json(lo).dump() + ", " + Json(hi).dump() + "]: " + DTypeLimits(p.dtype));
  }
  std::optional<double> mn, mx;  // the problem's bounds at this case's scalars
  for (auto [bound, into] : {std::pair{&p.value_min, &mn}, std::pair{&p.value_max, &mx}}) {
    if (!*bound) continue;
    auto v = (*bound)->At(scalars);
    if (!v) return MakeError(v.error().code, p.where + ": " + v.error().message);
    *into = *v;
  }
  if ((mn && lo < *mn) || (mx && hi > *mx))
    return ctx.Fail("values reach [" + Json(lo).dump() + ", " + Json(hi).dump() + "], outside the problem's range [" +
                    (mn ? Json(*mn).dump() : "-inf") + ", " + (mx ? Json(*mx).dump() : "inf") + "] for " + p.name);
  return Status::Ok();
}

Expected<CaseKind> ParseKind(const std::string& s, const JsonContext& ctx) {
  for (CaseKind k :
       {CaseKind::kExample, CaseKind::kFunctional, CaseKind::kEdge, CaseKind::kPerformance, CaseKind::kStress})
    if (CaseKindName(k) == s) return k;
  return ctx.Fail("unknown kind \"" + s + "\" (expected example, functional, edge, performance or stress)");
}

Expected<Case> ParseCase(const Json& j, const JsonContext& ctx, const Problem& problem) {
  Case c;
  JUDGE_TRY(RejectUnknownKeys(j, {"name", "kind", "note", "scalars", "inputs"}, ctx));
  auto name = GetString(j, "name", ctx);
  auto kind = GetString(j, "kind", ctx, "functional");
  auto scalars = GetObject(j, "scalars", ctx);
  auto inputs = GetObject(j, "inputs", ctx);
  if (!name) return name.error();
  if (!kind) return kind.error();
  if (!scalars) return scalars.error();
  if (!inputs) return inputs.error();
  if (auto st = CheckCaseName(*name); !st) return ctx.Child("name").Fail(st.error().message);
  c.name = *name;
  auto k = ParseKind(*kind, ctx.Child("kind"));
  if (!k) return k.error();
  c.kind = *k;
  auto note = GetString(j, "note", ctx, "");
  if (!note) return note.error();
  c.note = *note;
  for (auto it = (*scalars)->begin(); it != (*scalars)->end(); ++it) {
    const Param* p = problem.FindParam(it.key());
    if (p && p->IsRealScalar()) {
      auto v = GetNumber(**scalars, it.key(), ctx.Child("scalars"));
      if (!v) return v.error();
      // solve() gets a float: the reference and the range check see that same value.
      c.real_scalars[it.key()] = std::isfinite(*v) ? double(float(*v)) : *v;
      continue;
    }
    auto v = GetInteger(**scalars, it.key(), ctx.Child("scalars"));
    if (!v) return v.error();
    c.scalars[it.key()] = *v;
  }
  if (auto st = problem.ValidateScalars(c.scalars, c.real_scalars); !st)
    return ctx.Child("scalars").Fail(st.error().message);
  // A size the problem cannot evaluate here is problem.json's to fix: its error names that file.
  if (auto st = problem.CheckSizes(c.scalars); !st)
    return MakeError(st.error().code, st.error().message + " (case \"" + c.name + "\" of " + ctx.file() + ")");
  size_t literals = 0;
  for (const Param& p : problem.params) {
    if (!p.HoldsInputData()) continue;
    JsonContext ic = ctx.Child("inputs").Child(p.name);
    auto spec_json = RequireField(**inputs, p.name, ctx.Child("inputs"));
    if (!spec_json) return spec_json.error();
    auto spec = ParseInputSpec(**spec_json, ic);
    if (!spec) return spec.error();
    if (auto st = ValidateInput(*spec, p, problem.ElementCount(p, c.scalars).value(), c.scalars, ic); !st)
      return st.error();
    if (spec->values && (literals += spec->values->size()) > kMaxLiteralValues)
      return ic.Child("values").Fail("the case's literal values number " + std::to_string(literals) +
                                     ", more than the " + std::to_string(kMaxLiteralValues) +
                                     " a case may hold (they travel to the worker in one message of at most 1 MiB): "
                                     "give large inputs as a generator (\"generate\": {...})");
    c.inputs[p.name] = *spec;
  }
  for (auto it = (*inputs)->begin(); it != (*inputs)->end(); ++it) {
    const Param* p = problem.FindParam(it.key());
    if (!p || !p->HoldsInputData())
      return ctx.Child("inputs").Child(it.key()).Fail("not an input or inout buffer of problem " + problem.name);
  }
  return c;
}

}  // namespace

Status CheckCaseName(const std::string& name) {
  const bool ok =
      !name.empty() && name.size() <= kMaxCaseNameLength && std::all_of(name.begin(), name.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.';
      });
  if (ok) return Status::Ok();
  // Quoted as JSON: the name may hold control characters, and errors go to a terminal.
  std::string shown = Json(name.substr(0, kMaxCaseNameLength + 1)).dump(-1, ' ', false, Json::error_handler_t::replace);
  return MakeError(ErrorCode::kBadInput, "a case name is 1 to " + std::to_string(kMaxCaseNameLength) +
                                             " letters, digits, '_', '-' and '.', not " + shown +
                                             (name.size() > kMaxCaseNameLength ? " (cut here)" : ""));
}

Expected<InputSpec> ParseInputSpec(const Json& j, const JsonContext& ctx) {
  InputSpec spec;
  if (!j.is_object()) return ctx.Fail("expected {\"values\": [...]} or {\"generate\": {...}}, got " + JsonTypeName(j));
  JUDGE_TRY(RejectUnknownKeys(j, {"values", "generate"}, ctx));
  bool has_values = j.contains("values"), has_gen = j.contains("generate");
  if (has_values == has_gen)
    return ctx.Fail("give exactly one of \"values\" (a literal array) or \"generate\" (a generator spec)");
  if (has_values) {
    auto arr = GetArray(j, "values", ctx);
    if (!arr) return arr.error();
    auto nums = ParseNumbers(**arr, ctx.Child("values"));
    if (!nums) return nums.error();
    spec.values = *nums;
    return spec;
  }
  auto g = GetObject(j, "generate", ctx);
  if (!g) return g.error();
  auto gen = ParseGenerator(**g, ctx.Child("generate"));
  if (!gen) return gen.error();
  spec.generate = *gen;
  return spec;
}

Json InputSpecToJson(const InputSpec& spec) {
  if (spec.values) return Json{{"values", *spec.values}};
  const GeneratorSpec& g = *spec.generate;
  Json j = {{"generate",
             {{"dist", g.dist},
              {"low", g.low},
              {"high", g.high},
              {"mean", g.mean},
              {"stddev", g.stddev},
              {"value", g.value},
              {"start", g.start},
              {"step", g.step},
              {"seed", int64_t(g.seed)},
              {"head", g.head}}}};
  if (g.hot_fraction > 0) j["generate"]["hot"] = {{"value", g.hot_value}, {"fraction", g.hot_fraction}};
  return j;
}

Expected<std::vector<Case>> LoadTestcaseFile(const std::string& path, const Problem& problem) {
  auto root = ParseJsonFile(path);
  if (!root) return root.error();
  JsonContext ctx(path, "");
  JUDGE_TRY(RejectUnknownKeys(*root, {"schema_version", "problem", "description", "cases"}, ctx));
  auto pname = GetString(*root, "problem", ctx);
  if (!pname) return pname.error();
  if (*pname != problem.name)
    return ctx.Child("problem").Fail("file is for problem \"" + *pname + "\", not \"" + problem.name + "\"");
  auto cases = GetArray(*root, "cases", ctx);
  if (!cases) return cases.error();
  std::vector<Case> out;
  for (size_t i = 0; i < (*cases)->size(); ++i) {
    auto c = ParseCase((**cases)[i], ctx.Child("cases").Index(i), problem);
    if (!c) return c.error();
    c->source_file = path;
    out.push_back(std::move(*c));
  }
  return out;
}

Expected<std::vector<Case>> LoadTestcaseDir(const std::string& dir, const Problem& problem) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return MakeError(ErrorCode::kUsage, "testcase folder not found: " + dir);
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::vector<Case> all;
  std::set<std::string> names;
  for (const auto& f : files) {
    auto cases = LoadTestcaseFile(f, problem);
    if (!cases) return cases.error();
    for (auto& c : *cases) {
      if (!names.insert(c.name).second)
        return MakeError(ErrorCode::kBadInput, f + ": duplicate case name \"" + c.name + "\"");
      all.push_back(std::move(c));
    }
  }
  if (all.empty()) return MakeError(ErrorCode::kUsage, "no testcases in " + dir);
  return all;
}

std::vector<Case> SelectCases(std::vector<Case> cases, const std::vector<std::string>& filters) {
  const bool everything = filters.empty() || std::find(filters.begin(), filters.end(), "all") != filters.end();
  std::vector<Case> out;
  for (auto& c : cases) {
    bool wanted = everything && c.kind != CaseKind::kStress;
    for (const auto& f : filters)
      wanted = wanted || (f != "all" && (c.name.find(f) != std::string::npos || CaseKindName(c.kind) == f));
    if (wanted) out.push_back(std::move(c));
  }
  return out;
}

}  // namespace judge

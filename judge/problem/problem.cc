// SPDX-License-Identifier: MIT
#include "judge/problem/problem.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "judge/util/json_fields.h"
#include "judge/util/range.h"

namespace judge {
namespace fs = std::filesystem;

std::string_view DTypeName(DType t) { return t == DType::kFloat32 ? "float32" : "int32"; }
std::string_view DTypeCType(DType t) { return t == DType::kFloat32 ? "float" : "int"; }
size_t DTypeSize(DType) { return 4; }

std::optional<DType> DTypeFromName(std::string_view name) {
  if (name == "float32") return DType::kFloat32;
  if (name == "int32") return DType::kInt32;
  return std::nullopt;
}

bool DTypeHolds(DType t, double v) {
  if (t == DType::kFloat32) return std::fabs(v) <= double(std::numeric_limits<float>::max());  // false for NaN
  return v >= double(std::numeric_limits<int32_t>::min()) && v <= double(std::numeric_limits<int32_t>::max());
}

std::string DTypeLimits(DType t) {
  char buf[96];
  if (t == DType::kFloat32)
    std::snprintf(buf, sizeof buf, "float32 holds finite magnitudes up to %g",
                  double(std::numeric_limits<float>::max()));
  else
    std::snprintf(buf, sizeof buf, "int32 holds -2147483648 to 2147483647");
  return buf;
}

namespace {

std::string ScalarsText(const ScalarValues& scalars) {
  std::string out;
  for (const auto& [k, v] : scalars) out += (out.empty() ? "" : ", ") + k + "=" + std::to_string(v);
  return out;
}

}  // namespace

std::string Problem::Declaration() const {
  std::string s = "void " + entry_point + "(";
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& p = params[i];
    if (i) s += ", ";
    if (p.is_buffer)
      s += std::string(p.SubmissionMayWrite() ? "" : "const ") + std::string(DTypeCType(p.dtype)) + "* " + p.name;
    else
      s += std::string(DTypeCType(p.dtype)) + " " + p.name;
  }
  return s + ")";
}

const Param* Problem::FindParam(const std::string& n) const {
  for (const auto& p : params)
    if (p.name == n) return &p;
  return nullptr;
}

Expected<int64_t> Problem::ElementCount(const Param& p, const ScalarValues& scalars) const {
  auto n = EvalSizeExpr(p.size_expr, scalars);
  if (n && *n < 0)
    n = MakeError(ErrorCode::kBadInput, "size expression \"" + p.size_expr + "\": " + std::to_string(*n) + " elements");
  // Problems of the problem's, not of the testcase that reached them.
  if (!n) return MakeError(n.error().code, p.where + ".size: " + n.error().message + " at " + ScalarsText(scalars));
  return n;
}

Expected<double> ValueBound::At(const ScalarValues& scalars) const {
  if (expr.empty()) return value;
  auto v = EvalSizeExpr(expr, scalars);
  if (!v) return v.error();
  return double(*v);
}

std::string_view CheckKindName(CheckKind kind) {
  switch (kind) {
    case CheckKind::kTolerance: return "tolerance";
    case CheckKind::kExact: return "exact";
    case CheckKind::kReference: return "reference";
  }
  return "tolerance";
}

std::string CheckSpec::Describe() const {
  char buf[160];
  switch (kind) {
    case CheckKind::kExact: return "every element equal to the expected value";
    case CheckKind::kReference: return "the problem's own checker (reference.cc: judge_check)";
    case CheckKind::kTolerance:
      std::snprintf(buf, sizeof buf, "|got - expected| <= %g + %g * |expected|%s", tolerance.atol, tolerance.rtol,
                    reference_bound ? " + the reference's bound for the element" : "");
      return buf;
  }
  return "";
}

bool Problem::HasRealScalars() const {
  return std::any_of(params.begin(), params.end(), [](const Param& p) { return p.IsRealScalar(); });
}

Expected<Work> Problem::WorkAt(const ScalarValues& scalars) const {
  Work w;
  for (const auto& p : params) {
    if (!p.is_buffer) continue;
    auto n = ElementCount(p, scalars);
    if (!n) return n.error();
    const int64_t bytes = *n * int64_t(DTypeSize(p.dtype));
    if (p.HoldsInputData()) w.bytes_read += bytes;
    if (p.IsChecked()) w.bytes_written += bytes;
  }
  // The roofline's expressions were checked at load (CheckSizeExpressions): an error here is one
  // of this problem.json's, named as such.
  auto eval = [&](const std::string& expr, const char* key) -> Expected<int64_t> {
    auto v = EvalSizeExpr(expr, scalars);
    if (v && *v < 0) v = MakeError(ErrorCode::kBadInput, std::to_string(*v) + ", a negative amount");
    if (!v) return MakeError(v.error().code, dir + "/problem.json: roofline." + key + ": " + v.error().message);
    return v;
  };
  for (auto [expr, key, into] : {std::tuple{&bytes_read_expr, "bytes_read", &w.bytes_read},
                                 std::tuple{&bytes_written_expr, "bytes_written", &w.bytes_written}}) {
    if (expr->empty()) continue;
    auto v = eval(*expr, key);
    if (!v) return v.error();
    *into = *v;
  }
  if (!flops_expr.empty()) {
    auto v = eval(flops_expr, "flops");
    if (!v) return v.error();
    w.flops = double(*v);
  }
  return w;
}

Expected<int64_t> Problem::MinimumBytes(const ScalarValues& scalars) const {
  auto w = WorkAt(scalars);
  if (!w) return w.error();
  return w->bytes();
}

namespace {

Status CheckIntScalar(const Param& p, const ScalarValues& scalars) {
  auto it = scalars.find(p.name);
  if (it == scalars.end()) return MakeError(ErrorCode::kBadInput, "scalar " + p.name + " is not given");
  if (it->second < p.min || it->second > p.max)
    return MakeError(ErrorCode::kBadInput, "scalar " + p.name + " = " + std::to_string(it->second) + " is outside [" +
                                               std::to_string(p.min) + ", " + std::to_string(p.max) + "]");
  if (it->second % p.multiple_of != 0)
    return MakeError(ErrorCode::kBadInput, "scalar " + p.name + " = " + std::to_string(it->second) +
                                               " is not a multiple of " + std::to_string(p.multiple_of));
  return Status::Ok();
}

Status CheckRealScalar(const Param& p, const RealValues& reals) {
  auto it = reals.find(p.name);
  if (it == reals.end()) return MakeError(ErrorCode::kBadInput, "float scalar " + p.name + " is not given");
  if (!(it->second >= p.real_min && it->second <= p.real_max))  // NaN fails too
    return MakeError(ErrorCode::kBadInput, "scalar " + p.name + " = " + Json(it->second).dump() + " is outside [" +
                                               Json(p.real_min).dump() + ", " + Json(p.real_max).dump() + "]");
  return Status::Ok();
}

}  // namespace

Status Problem::ValidateScalars(const ScalarValues& scalars, const RealValues& reals) const {
  for (const auto& p : params) {
    if (p.IsIntScalar()) JUDGE_TRY(CheckIntScalar(p, scalars));
    if (p.IsRealScalar()) JUDGE_TRY(CheckRealScalar(p, reals));
  }
  for (const auto& [name, value] : scalars) {
    const Param* p = FindParam(name);
    if (!p || !p->IsIntScalar())
      return MakeError(ErrorCode::kBadInput, "'" + name + "' is not an int scalar of this problem" +
                                                 std::string(p && p->IsRealScalar() ? " (it is a float scalar)" : ""));
  }
  for (const auto& [name, value] : reals) {
    const Param* p = FindParam(name);
    if (!p || !p->IsRealScalar())
      return MakeError(ErrorCode::kBadInput, "'" + name + "' is not a float scalar of this problem");
  }
  return Status::Ok();
}

Status Problem::CheckSizes(const ScalarValues& scalars) const {
  // Only the int scalars make sizes: the float ones are checked where a case gives them.
  RealValues reals;
  for (const auto& p : params)
    if (p.IsRealScalar()) reals[p.name] = p.real_min;
  JUDGE_TRY(ValidateScalars(scalars, reals));
  for (const auto& p : params)
    if (p.is_buffer) JUDGE_TRY(ElementCount(p, scalars));
  return Status::Ok();
}

namespace {

bool IsIdentifier(const std::string& s) {
  if (s.empty() || s.size() > 64 || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Number fields held to a range (util/range's rule).
Expected<double> GetNumberIn(const Json& obj, const std::string& key, const JsonContext& ctx, double lo, double hi,
                             const std::string& unit, std::optional<double> fallback = std::nullopt) {
  auto v = GetNumber(obj, key, ctx, fallback);
  if (std::string why = v ? OutsideRange(*v, lo, hi, unit) : ""; !why.empty()) return ctx.Child(key).Fail(why);
  return v;
}

Expected<int64_t> GetIntegerIn(const Json& obj, const std::string& key, const JsonContext& ctx, int64_t lo, int64_t hi,
                               std::optional<int64_t> fallback = std::nullopt) {
  auto v = GetInteger(obj, key, ctx, fallback);
  if (std::string why = v ? OutsideRange(double(*v), double(lo), double(hi)) : ""; !why.empty())
    return ctx.Child(key).Fail(why);
  return v;
}

// A bound on an input's values: a number the dtype holds, or an expression over the int scalars
// (checked at every corner of their ranges with the sizes, CheckSizeExpressions).
Expected<std::optional<ValueBound>> ParseValueBound(const Json& j, const char* key, const Param& p,
                                                    const JsonContext& ctx) {
  if (!j.contains(key)) return std::optional<ValueBound>{};
  ValueBound b;
  if (j[key].is_string()) {
    b.expr = j[key].get<std::string>();
    return std::optional<ValueBound>{b};
  }
  auto v = GetNumber(j, key, ctx);
  if (!v) return v.error();
  if (!DTypeHolds(p.dtype, *v)) return ctx.Child(key).Fail(DTypeLimits(p.dtype) + ", not " + Json(*v).dump());
  b.value = *v;
  return std::optional<ValueBound>{b};
}

Status ParseScalar(const Json& j, const JsonContext& ctx, Param& p) {
  p.is_buffer = false;
  if (p.dtype == DType::kFloat32) {
    JUDGE_TRY(RejectUnknownKeys(j, {"name", "kind", "dtype", "min", "max", "description"}, ctx));
    auto mn = GetNumber(j, "min", ctx), mx = GetNumber(j, "max", ctx);
    if (!mn) return mn.error();
    if (!mx) return mx.error();
    for (auto [key, v] : {std::pair{"min", *mn}, std::pair{"max", *mx}})
      if (!DTypeHolds(DType::kFloat32, v)) return ctx.Child(key).Fail(DTypeLimits(DType::kFloat32));
    if (*mn > *mx) return ctx.Fail("min (" + Json(*mn).dump() + ") is above max (" + Json(*mx).dump() + ")");
    p.real_min = *mn;
    p.real_max = *mx;
    return Status::Ok();
  }
  JUDGE_TRY(RejectUnknownKeys(j, {"name", "kind", "dtype", "min", "max", "multiple_of", "unpredictable", "description"},
                              ctx));
  // A scalar reaches solve() as an int: a bound past int32 would arrive truncated (2^32 + 8 as 8).
  constexpr int64_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
  auto mn = GetIntegerIn(j, "min", ctx, lo, hi), mx = GetIntegerIn(j, "max", ctx, lo, hi);
  auto multiple = GetIntegerIn(j, "multiple_of", ctx, 1, hi, 1);
  if (!mn) return mn.error();
  if (!mx) return mx.error();
  if (!multiple) return multiple.error();
  if (*mn > *mx) return ctx.Fail("min (" + std::to_string(*mn) + ") is above max (" + std::to_string(*mx) + ")");
  p.min = *mn;
  p.max = *mx;
  p.multiple_of = *multiple;
  if (p.min % p.multiple_of || p.max % p.multiple_of)
    return ctx.Fail("min and max must be multiples of multiple_of (" + std::to_string(p.multiple_of) + ")");
  if (j.contains("unpredictable")) {
    if (!j["unpredictable"].is_boolean()) return ctx.Child("unpredictable").Fail("expected true or false");
    p.unpredictable = j["unpredictable"].get<bool>();
  }
  return Status::Ok();
}

Status ParseBuffer(const Json& j, const JsonContext& ctx, Param& p) {
  JUDGE_TRY(RejectUnknownKeys(
      j, {"name", "kind", "role", "dtype", "size", "value_min", "value_max", "writable", "description"}, ctx));
  auto role = GetString(j, "role", ctx);
  auto size = GetString(j, "size", ctx);
  if (!role) return role.error();
  if (!size) return size.error();
  if (*role == "input")
    p.role = Role::kInput;
  else if (*role == "output")
    p.role = Role::kOutput;
  else if (*role == "inout")
    p.role = Role::kInOut;
  else
    return ctx.Child("role").Fail("expected \"input\", \"output\" or \"inout\", got " + Json(*role).dump());
  p.size_expr = *size;
  if (j.contains("writable")) {
    if (!j["writable"].is_boolean()) return ctx.Child("writable").Fail("expected true or false");
    if (p.role != Role::kInput) return ctx.Child("writable").Fail("only an input can be writable (scratch)");
    p.writable = j["writable"].get<bool>();
  }
  for (auto [key, into] : {std::pair{"value_min", &p.value_min}, std::pair{"value_max", &p.value_max}}) {
    if (j.contains(key) && p.role == Role::kOutput)
      return ctx.Child(key).Fail("an output holds no input values to bound");
    auto bound = ParseValueBound(j, key, p, ctx);
    if (!bound) return bound.error();
    *into = *bound;
  }
  if (p.value_min && p.value_max && p.value_min->expr.empty() && p.value_max->expr.empty() &&
      p.value_min->value > p.value_max->value)
    return ctx.Fail("value_min is above value_max");
  return Status::Ok();
}

Expected<Param> ParseParam(const Json& j, const JsonContext& ctx) {
  Param p;
  auto name = GetString(j, "name", ctx);
  auto kind = GetString(j, "kind", ctx);
  auto dtype = GetString(j, "dtype", ctx);
  if (!name) return name.error();
  if (!kind) return kind.error();
  if (!dtype) return dtype.error();
  // Names appear in C declarations and size expressions.
  if (!IsIdentifier(*name))
    return ctx.Child("name").Fail("expected a C identifier of at most 64 characters, got " + Json(*name).dump());
  p.name = *name;
  p.where = ctx.file() + ": " + ctx.path();
  auto dt = DTypeFromName(*dtype);
  if (!dt) return ctx.Child("dtype").Fail("unknown dtype \"" + *dtype + "\" (expected float32 or int32)");
  p.dtype = *dt;
  if (*kind == "scalar") {
    JUDGE_TRY(ParseScalar(j, ctx, p));
    return p;
  }
  if (*kind != "buffer") return ctx.Child("kind").Fail("expected \"buffer\" or \"scalar\", got \"" + *kind + "\"");
  JUDGE_TRY(ParseBuffer(j, ctx, p));
  return p;
}

Expected<TimingPolicy> ParseTiming(const Json& root, const std::string& key, const JsonContext& ctx, TimingPolicy d) {
  if (!root.contains("timing")) return d;
  JUDGE_TRY(RejectUnknownKeys(root["timing"], {"functional", "performance"}, ctx.Child("timing")));
  if (!root["timing"].contains(key)) return d;
  const Json& j = root["timing"][key];
  JsonContext c = ctx.Child("timing").Child(key);
  JUDGE_TRY(RejectUnknownKeys(j, {"warmup_calls", "min_samples", "max_samples", "budget_seconds", "target_noise"}, c));
  auto w = GetIntegerIn(j, "warmup_calls", c, 0, 1000, d.warmup_calls);
  auto mn = GetIntegerIn(j, "min_samples", c, 1, 100000, d.min_samples);
  auto mx = GetIntegerIn(j, "max_samples", c, 1, 100000, d.max_samples);
  auto b =
      GetNumberIn(j, "budget_seconds", c, kSecondsRange.min, kSecondsRange.max, kSecondsRange.unit, d.budget_seconds);
  auto n = GetNumberIn(j, "target_noise", c, 0, 1, "", d.target_noise);
  for (const auto* e : {&w, &mn, &mx})
    if (!*e) return e->error();
  for (const auto* e : {&b, &n})
    if (!*e) return e->error();
  if (*mn < 1 || *mx < *mn) return c.Fail("need 1 <= min_samples <= max_samples");
  return TimingPolicy{int(*w), int(*mn), int(*mx), *b, *n};
}

Status ParseCheck(const Json& root, const JsonContext& ctx, Problem& p) {
  auto obj = GetObject(root, "check", ctx);
  if (!obj) return obj.error();
  const Json& j = **obj;
  JsonContext c = ctx.Child("check");
  auto kind = GetString(j, "kind", c);
  if (!kind) return kind.error();
  if (*kind == "exact" || *kind == "reference") {
    JUDGE_TRY(RejectUnknownKeys(j, {"kind"}, c));
    p.check.kind = *kind == "exact" ? CheckKind::kExact : CheckKind::kReference;
    return Status::Ok();
  }
  if (*kind != "tolerance")
    return c.Child("kind").Fail("expected \"tolerance\", \"exact\" or \"reference\", got " + Json(*kind).dump());
  JUDGE_TRY(RejectUnknownKeys(j, {"kind", "atol", "rtol", "reference_bound"}, c));
  // A negative tolerance fails every answer, an infinite one passes every answer.
  auto a = GetNumberIn(j, "atol", c, 0, 1e30, "");
  auto r = GetNumberIn(j, "rtol", c, 0, 1e30, "");
  if (!a) return a.error();
  if (!r) return r.error();
  p.check.kind = CheckKind::kTolerance;
  p.check.tolerance = {*a, *r};
  if (j.contains("reference_bound")) {
    if (!j["reference_bound"].is_boolean()) return c.Child("reference_bound").Fail("expected true or false");
    p.check.reference_bound = j["reference_bound"].get<bool>();
  }
  return Status::Ok();
}

Status ParseRoofline(const Json& root, const JsonContext& ctx, Problem& p) {
  if (!root.contains("roofline")) return Status::Ok();
  auto obj = GetObject(root, "roofline", ctx);
  if (!obj) return obj.error();
  JsonContext c = ctx.Child("roofline");
  JUDGE_TRY(RejectUnknownKeys(**obj, {"bytes_read", "bytes_written", "flops"}, c));
  for (auto [key, into] : {std::pair{"bytes_read", &p.bytes_read_expr},
                           std::pair{"bytes_written", &p.bytes_written_expr}, std::pair{"flops", &p.flops_expr}}) {
    auto v = GetString(**obj, key, c, "");
    if (!v) return v.error();
    *into = *v;
  }
  return Status::Ok();
}

Status ParseLibraries(const Json& root, const JsonContext& ctx, Problem& p) {
  if (!root.contains("libraries")) return Status::Ok();
  auto arr = GetArray(root, "libraries", ctx);
  if (!arr) return arr.error();
  for (size_t i = 0; i < (*arr)->size(); ++i) {
    const Json& e = (**arr)[i];
    // Passed to nvcc as -l<name>: a name, never an option or a path.
    if (!e.is_string() || !IsIdentifier(e.get<std::string>()))
      return ctx.Child("libraries").Index(i).Fail("expected a library name such as \"cublas\"");
    p.libraries.push_back(e.get<std::string>());
  }
  return Status::Ok();
}

Status ParseLimitsAndTolerance(const Json& root, const JsonContext& ctx, Problem& p) {
  JUDGE_TRY(ParseCheck(root, ctx, p));
  JUDGE_TRY(ParseRoofline(root, ctx, p));
  JUDGE_TRY(ParseLibraries(root, ctx, p));
  if (root.contains("limits")) {
    JsonContext c = ctx.Child("limits");
    const Json& l = root["limits"];
    JUDGE_TRY(RejectUnknownKeys(
        l, {"call_seconds", "setup_seconds", "compile_seconds", "run_seconds", "host_memory_mb", "output_kb"}, c));
    auto seconds = [&](const char* key, double fallback) {
      return GetNumberIn(l, key, c, kSecondsRange.min, kSecondsRange.max, kSecondsRange.unit, fallback);
    };
    auto call = seconds("call_seconds", p.limits.call_seconds);
    auto setup = seconds("setup_seconds", p.limits.setup_seconds);
    auto comp = seconds("compile_seconds", p.limits.compile_seconds);
    auto run = seconds("run_seconds", p.limits.run_seconds);
    auto mem = GetNumberIn(l, "host_memory_mb", c, kHostMemoryMbRange.min, kHostMemoryMbRange.max,
                           kHostMemoryMbRange.unit, p.limits.host_memory_mb);
    auto out =
        GetNumberIn(l, "output_kb", c, kOutputKbRange.min, kOutputKbRange.max, kOutputKbRange.unit, p.limits.output_kb);
    for (const auto* e : {&call, &setup, &comp, &run, &mem, &out})
      if (!*e) return e->error();
    p.limits = {*call, *setup, *comp, *run, *mem, *out};
  }
  return Status::Ok();
}

Status ParsePerformanceSizes(const Json& root, const JsonContext& ctx, Problem& p) {
  if (!root.contains("performance_sizes")) return Status::Ok();
  auto arr = GetArray(root, "performance_sizes", ctx);
  if (!arr) return arr.error();
  for (size_t i = 0; i < (*arr)->size(); ++i) {
    ScalarValues s;
    JsonContext c = ctx.Child("performance_sizes").Index(i);
    const Json& e = (**arr)[i];
    if (!e.is_object()) return c.Fail("expected an object of scalars, e.g. {\"N\": 4194304}");
    for (auto it = e.begin(); it != e.end(); ++it) {
      auto v = GetInteger(e, it.key(), c);
      if (!v) return v.error();
      s[it.key()] = *v;
    }
    if (auto st = p.CheckSizes(s); !st) return c.Fail(st.error().message);
    p.performance_sizes.push_back(s);
  }
  return Status::Ok();
}

// Every buffer's size is a count at each corner of the scalars' ranges (each at its min or max):
// a syntax error, an unknown name, a division by zero or an overflow there is the problem's, found
// when it loads rather than in some testcase.
Status CheckSizeExpressions(const Problem& p) {
  std::vector<const Param*> scalars;
  for (const auto& q : p.params)
    if (q.IsIntScalar()) scalars.push_back(&q);
  for (uint32_t corner = 0; corner < (1u << scalars.size()); ++corner) {
    ScalarValues at;
    for (size_t i = 0; i < scalars.size(); ++i)
      at[scalars[i]->name] = (corner >> i) & 1 ? scalars[i]->max : scalars[i]->min;
    JUDGE_TRY(p.CheckSizes(at));
    JUDGE_TRY(p.WorkAt(at));
    for (const auto& q : p.params)
      for (auto [key, bound] : {std::pair{"value_min", &q.value_min}, std::pair{"value_max", &q.value_max}})
        if (*bound && !(*bound)->expr.empty())
          if (auto v = (*bound)->At(at); !v)
            return MakeError(ErrorCode::kBadInput, q.where + "." + key + ": " + v.error().message);
  }
  return Status::Ok();
}

}  // namespace

Expected<Problem> LoadProblem(const std::string& problems_root, const std::string& name) {
  fs::path dir = fs::path(problems_root) / name;
  std::string file = (dir / "problem.json").string();
  std::error_code ec;
  // A name may come from a submission's header: a folder of problems/, never a path elsewhere.
  if (!IsIdentifier(name) || !fs::exists(file, ec)) {
    std::string known;
    for (const auto& n : ListProblems(problems_root)) known += (known.empty() ? "" : ", ") + n;
    return MakeError(ErrorCode::kUsage, "unknown problem \"" + name + "\" (--problem): no " + file +
                                            (known.empty() ? "" : " (known problems: " + known + ")"));
  }
  auto root = ParseJsonFile(file);
  if (!root) return root.error();
  JsonContext ctx(file, "");
  JUDGE_TRY(RejectUnknownKeys(*root,
                              {"schema_version", "name", "title", "description", "statement", "entry_point",
                               "signature", "check", "roofline", "libraries", "limits", "timing", "performance_sizes",
                               "reference", "samples", "input_variants", "zero_init_outputs"},
                              ctx));
  Problem p;
  p.dir = fs::absolute(dir).string();
  auto pname = GetString(*root, "name", ctx);
  if (!pname) return pname.error();
  p.name = *pname;
  auto title = GetString(*root, "title", ctx, p.name);
  auto entry = GetString(*root, "entry_point", ctx, "solve");
  auto statement = GetString(*root, "statement", ctx, "statement.md");
  auto ref = GetObject(*root, "reference", ctx);
  auto samples = GetString(*root, "samples", ctx, "submissions/" + p.name);
  if (!samples) return samples.error();
  // Relative to the root, inside it: a problem names its own samples, nothing elsewhere.
  if (samples->empty() || (*samples)[0] == '/' || samples->find("..") != std::string::npos)
    return ctx.Child("samples").Fail("expected a folder relative to the repository root, e.g. \"submissions/" + p.name +
                                     "\"");
  p.samples_dir = *samples;
  if (!title) return title.error();
  if (!entry) return entry.error();
  if (!statement) return statement.error();
  if (!ref) return ref.error();
  if (!IsIdentifier(*entry))
    return ctx.Child("entry_point").Fail("expected a C identifier, got " + Json(*entry).dump());
  p.title = *title;
  p.entry_point = *entry;
  p.statement_path = (dir / *statement).string();
  JUDGE_TRY(RejectUnknownKeys(**ref, {"source", "description"}, ctx.Child("reference")));
  auto src = GetString(**ref, "source", ctx.Child("reference"));
  if (!src) return src.error();
  p.reference_source = fs::absolute(dir / *src).string();
  if (!fs::exists(p.reference_source, ec))
    return ctx.Child("reference.source").Fail("file not found: " + p.reference_source);
  auto description = GetString(**ref, "description", ctx.Child("reference"), "");
  if (!description) return description.error();
  p.reference_description = *description;
  auto sig = GetArray(*root, "signature", ctx);
  if (!sig) return sig.error();
  if ((*sig)->empty() || (*sig)->size() > 6) return ctx.Child("signature").Fail("expected 1 to 6 parameters");
  for (size_t i = 0; i < (*sig)->size(); ++i) {
    auto param = ParseParam((**sig)[i], ctx.Child("signature").Index(i));
    if (!param) return param.error();
    if (p.FindParam(param->name))
      return ctx.Child("signature").Index(i).Child("name").Fail("a second parameter named " + param->name);
    p.params.push_back(*param);
  }
  if (auto st = ParseLimitsAndTolerance(*root, ctx, p); !st) return st.error();
  JUDGE_TRY(CheckSizeExpressions(p));
  auto ft = ParseTiming(*root, "functional", ctx, TimingPolicy{});
  auto pt = ParseTiming(*root, "performance", ctx, TimingPolicy{3, 10, 200, 2.0, 0.005});
  if (!ft) return ft.error();
  if (!pt) return pt.error();
  p.functional_timing = *ft;
  p.performance_timing = *pt;
  if (auto st = ParsePerformanceSizes(*root, ctx, p); !st) return st.error();
  auto variants = GetInteger(*root, "input_variants", ctx, p.input_variants);
  if (!variants) return variants.error();
  if (*variants < 1 || *variants > 8) return ctx.Child("input_variants").Fail("expected 1 to 8");
  p.input_variants = int(*variants);
  if (root->contains("zero_init_outputs")) {
    if (!(*root)["zero_init_outputs"].is_boolean())
      return ctx.Child("zero_init_outputs").Fail("expected true or false");
    p.zero_init_outputs = (*root)["zero_init_outputs"].get<bool>();
  }
  return p;
}

std::vector<std::string> ListProblems(const std::string& problems_root) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(problems_root, ec))
    if (fs::exists(e.path() / "problem.json", ec)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace judge

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
      s += std::string(p.role == Role::kInput ? "const " : "") + std::string(DTypeCType(p.dtype)) + "* " + p.name;
    else
      s += "int " + p.name;
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

Expected<int64_t> Problem::MinimumBytes(const ScalarValues& scalars) const {
  int64_t total = 0;
  for (const auto& p : params) {
    if (!p.is_buffer) continue;
    auto n = ElementCount(p, scalars);
    if (!n) return n.error();
    total += *n * int64_t(DTypeSize(p.dtype));
  }
  return total;
}

Status Problem::ValidateScalars(const ScalarValues& scalars) const {
  for (const auto& p : params) {
    if (p.is_buffer) continue;
    auto it = scalars.find(p.name);
    if (it == scalars.end()) return MakeError(ErrorCode::kBadInput, "scalar " + p.name + " is not given");
    if (it->second < p.min || it->second > p.max)
      return MakeError(ErrorCode::kBadInput, "scalar " + p.name + " = " + std::to_string(it->second) + " is outside [" +
                                                 std::to_string(p.min) + ", " + std::to_string(p.max) + "]");
  }
  for (const auto& [name, value] : scalars) {
    const Param* p = FindParam(name);
    if (!p || p->is_buffer) return MakeError(ErrorCode::kBadInput, "'" + name + "' is not a scalar of this problem");
  }
  return Status::Ok();
}

Status Problem::CheckSizes(const ScalarValues& scalars) const {
  JUDGE_TRY(ValidateScalars(scalars));
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

Expected<Param> ParseParam(const Json& j, const JsonContext& ctx) {
  Param p;
  JUDGE_TRY(RejectUnknownKeys(
      j, {"name", "kind", "role", "dtype", "size", "value_min", "value_max", "min", "max", "description"}, ctx));
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
    p.is_buffer = false;
    if (p.dtype != DType::kInt32) return ctx.Child("dtype").Fail("scalars must be int32");
    // A scalar reaches solve() as an int: a bound past int32 would arrive truncated (2^32 + 8 as 8).
    constexpr int64_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
    auto mn = GetIntegerIn(j, "min", ctx, lo, hi), mx = GetIntegerIn(j, "max", ctx, lo, hi);
    if (!mn) return mn.error();
    if (!mx) return mx.error();
    if (*mn > *mx) return ctx.Fail("min (" + std::to_string(*mn) + ") is above max (" + std::to_string(*mx) + ")");
    p.min = *mn;
    p.max = *mx;
    return p;
  }
  if (*kind != "buffer") return ctx.Child("kind").Fail("expected \"buffer\" or \"scalar\", got \"" + *kind + "\"");
  auto role = GetString(j, "role", ctx);
  auto size = GetString(j, "size", ctx);
  if (!role) return role.error();
  if (!size) return size.error();
  if (*role != "input" && *role != "output") return ctx.Child("role").Fail("expected \"input\" or \"output\"");
  p.role = *role == "input" ? Role::kInput : Role::kOutput;
  p.size_expr = *size;
  for (auto [key, into] : {std::pair{"value_min", &p.value_min}, std::pair{"value_max", &p.value_max}}) {
    if (!j.contains(key)) continue;
    auto v = GetNumber(j, key, ctx);
    if (!v) return v.error();
    if (!DTypeHolds(p.dtype, *v)) return ctx.Child(key).Fail(DTypeLimits(p.dtype) + ", not " + Json(*v).dump());
    *into = *v;
  }
  if (p.value_min && p.value_max && *p.value_min > *p.value_max) return ctx.Fail("value_min is above value_max");
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

Status ParseLimitsAndTolerance(const Json& root, const JsonContext& ctx, Problem& p) {
  if (root.contains("tolerance")) {
    JsonContext c = ctx.Child("tolerance");
    JUDGE_TRY(RejectUnknownKeys(root["tolerance"], {"atol", "rtol"}, c));
    // A negative tolerance fails every answer, an infinite one passes every answer.
    auto a = GetNumberIn(root["tolerance"], "atol", c, 0, 1e30, "");
    auto r = GetNumberIn(root["tolerance"], "rtol", c, 0, 1e30, "");
    if (!a) return a.error();
    if (!r) return r.error();
    p.tolerance = {*a, *r};
  }
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
    if (auto st = p.ValidateScalars(s); !st) return c.Fail(st.error().message);
    JUDGE_TRY(p.CheckSizes(s));
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
    if (!q.is_buffer) scalars.push_back(&q);
  for (uint32_t corner = 0; corner < (1u << scalars.size()); ++corner) {
    ScalarValues at;
    for (size_t i = 0; i < scalars.size(); ++i)
      at[scalars[i]->name] = (corner >> i) & 1 ? scalars[i]->max : scalars[i]->min;
    JUDGE_TRY(p.CheckSizes(at));
  }
  return Status::Ok();
}

}  // namespace

Expected<Problem> LoadProblem(const std::string& problems_root, const std::string& name) {
  fs::path dir = fs::path(problems_root) / name;
  std::string file = (dir / "problem.json").string();
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    std::string known;
    for (const auto& n : ListProblems(problems_root)) known += (known.empty() ? "" : ", ") + n;
    return MakeError(ErrorCode::kUsage, "unknown problem \"" + name + "\" (--problem): no " + file +
                                            (known.empty() ? "" : " (known problems: " + known + ")"));
  }
  auto root = ParseJsonFile(file);
  if (!root) return root.error();
  JsonContext ctx(file, "");
  JUDGE_TRY(RejectUnknownKeys(
      *root,
      {"schema_version", "name", "title", "description", "statement", "entry_point", "signature", "tolerance", "limits",
       "timing", "performance_sizes", "reference", "input_variants", "zero_init_outputs"},
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
  JUDGE_TRY(CheckSizeExpressions(p));
  if (auto st = ParseLimitsAndTolerance(*root, ctx, p); !st) return st.error();
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

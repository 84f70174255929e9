// SPDX-License-Identifier: MIT
#include "judge/problem/problem.h"

#include <filesystem>

#include "judge/util/json_fields.h"

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
  return EvalSizeExpr(p.size_expr, scalars);
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

namespace {

Expected<Param> ParseParam(const Json& j, const JsonContext& ctx) {
  Param p;
  auto name = GetString(j, "name", ctx);
  auto kind = GetString(j, "kind", ctx);
  auto dtype = GetString(j, "dtype", ctx);
  if (!name) return name.error();
  if (!kind) return kind.error();
  if (!dtype) return dtype.error();
  p.name = *name;
  auto dt = DTypeFromName(*dtype);
  if (!dt) return ctx.Child("dtype").Fail("unknown dtype \"" + *dtype + "\" (expected float32 or int32)");
  p.dtype = *dt;
  if (*kind == "scalar") {
    p.is_buffer = false;
    if (p.dtype != DType::kInt32) return ctx.Child("dtype").Fail("scalars must be int32");
    auto mn = GetInteger(j, "min", ctx), mx = GetInteger(j, "max", ctx);
    if (!mn) return mn.error();
    if (!mx) return mx.error();
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
  if (j.contains("value_min")) {
    auto v = GetNumber(j, "value_min", ctx);
    if (!v) return v.error();
    p.value_min = *v;
  }
  if (j.contains("value_max")) {
    auto v = GetNumber(j, "value_max", ctx);
    if (!v) return v.error();
    p.value_max = *v;
  }
  return p;
}

Expected<TimingPolicy> ParseTiming(const Json& root, const std::string& key, const JsonContext& ctx, TimingPolicy d) {
  if (!root.contains("timing") || !root["timing"].contains(key)) return d;
  const Json& j = root["timing"][key];
  JsonContext c = ctx.Child("timing").Child(key);
  auto w = GetInteger(j, "warmup_calls", c, d.warmup_calls);
  auto mn = GetInteger(j, "min_samples", c, d.min_samples);
  auto mx = GetInteger(j, "max_samples", c, d.max_samples);
  auto b = GetNumber(j, "budget_seconds", c, d.budget_seconds);
  auto n = GetNumber(j, "target_noise", c, d.target_noise);
  for (const auto* e : {&w, &mn, &mx})
    if (!*e) return e->error();
  for (const auto* e : {&b, &n})
    if (!*e) return e->error();
  if (*mn < 1 || *mx < *mn) return c.Fail("need 1 <= min_samples <= max_samples");
  return TimingPolicy{int(*w), int(*mn), int(*mx), *b, *n};
}

Status ParseLimitsAndTolerance(const Json& root, const JsonContext& ctx, Problem& p) {
  if (root.contains("tolerance")) {
    auto a = GetNumber(root["tolerance"], "atol", ctx.Child("tolerance"));
    auto r = GetNumber(root["tolerance"], "rtol", ctx.Child("tolerance"));
    if (!a) return a.error();
    if (!r) return r.error();
    p.tolerance = {*a, *r};
  }
  if (root.contains("limits")) {
    JsonContext c = ctx.Child("limits");
    auto call = GetNumber(root["limits"], "call_seconds", c, p.limits.call_seconds);
    auto setup = GetNumber(root["limits"], "setup_seconds", c, p.limits.setup_seconds);
    auto comp = GetNumber(root["limits"], "compile_seconds", c, p.limits.compile_seconds);
    auto run = GetNumber(root["limits"], "run_seconds", c, p.limits.run_seconds);
    auto mem = GetNumber(root["limits"], "host_memory_mb", c, p.limits.host_memory_mb);
    auto out = GetNumber(root["limits"], "output_kb", c, p.limits.output_kb);
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
    p.performance_sizes.push_back(s);
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
    return MakeError(ErrorCode::kUsage, "unknown problem \"" + name + "\": no " + file +
                                            (known.empty() ? "" : " (known problems: " + known + ")"));
  }
  auto root = ParseJsonFile(file);
  if (!root) return root.error();
  JsonContext ctx(file, "");
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
  p.title = *title;
  p.entry_point = *entry;
  p.statement_path = (dir / *statement).string();
  auto src = GetString(**ref, "source", ctx.Child("reference"));
  if (!src) return src.error();
  p.reference_source = fs::absolute(dir / *src).string();
  if (!fs::exists(p.reference_source, ec))
    return ctx.Child("reference.source").Fail("file not found: " + p.reference_source);
  p.reference_description = GetString(**ref, "description", ctx.Child("reference"), "").value();
  auto sig = GetArray(*root, "signature", ctx);
  if (!sig) return sig.error();
  for (size_t i = 0; i < (*sig)->size(); ++i) {
    auto param = ParseParam((**sig)[i], ctx.Child("signature").Index(i));
    if (!param) return param.error();
    p.params.push_back(*param);
  }
  if (p.params.empty() || p.params.size() > 6) return ctx.Child("signature").Fail("expected 1 to 6 parameters");
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

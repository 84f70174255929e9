// SPDX-License-Identifier: MIT
#include "judge/util/json_fields.h"

#include <cmath>

#include "judge/util/fs.h"

namespace judge {

std::string JsonTypeName(const Json& j) {
  if (j.is_null()) return "null";
  if (j.is_boolean()) return "a boolean";
  if (j.is_number_integer() || j.is_number_unsigned()) return "an integer";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string " + j.dump();
  if (j.is_array()) return "an array";
  return "an object";
}

Expected<Json> ParseJsonFile(const std::string& path) {
  auto text = ReadFile(path, kMaxJsonBytes);
  if (!text) return text.error();
  try {
    return Json::parse(*text);
  } catch (const Json::parse_error& e) {
    // nlohmann reports a byte offset; people want a line and column.
    size_t line = 1, col = 1;
    for (size_t i = 0; i < e.byte - 1 && i < text->size(); ++i) {
      if ((*text)[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    return MakeError(ErrorCode::kBadInput,
                     path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": invalid JSON: " + e.what());
  }
}

Expected<const Json*> RequireField(const Json& obj, const std::string& key, const JsonContext& ctx) {
  if (!obj.is_object()) return ctx.Fail("expected an object, got " + JsonTypeName(obj));
  auto it = obj.find(key);
  if (it == obj.end()) return ctx.Child(key).Fail("required field is missing");
  return &*it;
}

Expected<std::string> GetString(const Json& obj, const std::string& key, const JsonContext& ctx,
                                std::optional<std::string> fallback) {
  if (fallback && (!obj.is_object() || !obj.contains(key))) return *fallback;
  auto f = RequireField(obj, key, ctx);
  if (!f) return f.error();
  if (!(*f)->is_string()) return ctx.Child(key).Fail("expected a string, got " + JsonTypeName(**f));
  return (*f)->get<std::string>();
}

Expected<double> GetNumber(const Json& obj, const std::string& key, const JsonContext& ctx,
                           std::optional<double> fallback) {
  if (fallback && (!obj.is_object() || !obj.contains(key))) return *fallback;
  auto f = RequireField(obj, key, ctx);
  if (!f) return f.error();
  if (!(*f)->is_number()) return ctx.Child(key).Fail("expected a number, got " + JsonTypeName(**f));
  return (*f)->get<double>();
}

Expected<int64_t> GetInteger(const Json& obj, const std::string& key, const JsonContext& ctx,
                             std::optional<int64_t> fallback) {
  if (fallback && (!obj.is_object() || !obj.contains(key))) return *fallback;
  auto f = RequireField(obj, key, ctx);
  if (!f) return f.error();
  const Json& v = **f;
  if (v.is_number_integer() || v.is_number_unsigned()) return v.get<int64_t>();
  if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>() && std::fabs(v.get<double>()) < 9e15)
    return static_cast<int64_t>(v.get<double>());
  return ctx.Child(key).Fail("expected an integer, got " + JsonTypeName(v));
}

Expected<const Json*> GetArray(const Json& obj, const std::string& key, const JsonContext& ctx) {
  auto f = RequireField(obj, key, ctx);
  if (!f) return f.error();
  if (!(*f)->is_array()) return ctx.Child(key).Fail("expected an array, got " + JsonTypeName(**f));
  return *f;
}

Expected<const Json*> GetObject(const Json& obj, const std::string& key, const JsonContext& ctx) {
  auto f = RequireField(obj, key, ctx);
  if (!f) return f.error();
  if (!(*f)->is_object()) return ctx.Child(key).Fail("expected an object, got " + JsonTypeName(**f));
  return *f;
}

}  // namespace judge

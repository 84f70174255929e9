// SPDX-License-Identifier: MIT
#include "judge/util/json_fields.h"

#include <algorithm>
#include <cmath>
#include <vector>

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

namespace {

// Edits from a to b, a swap of neighbours counting as one ("knid" is one from "kind").
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

Status RejectUnknownKeys(const Json& obj, std::initializer_list<std::string_view> known, const JsonContext& ctx) {
  if (!obj.is_object()) return ctx.Fail("expected an object, got " + JsonTypeName(obj));
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string& key = it.key();
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string_view closest;
    size_t best = 3;  // further than two edits is no misspelling
    for (std::string_view k : known)
      if (size_t d = EditDistance(key, k); d < best) best = d, closest = k;
    std::string list;
    for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    // Quoted as JSON: a key may hold control characters, and errors go to a terminal.
    return ctx.Fail("unknown key " + Json(key).dump() +
                    (closest.empty() ? " (known: " + list + ")" : ": did you mean \"" + std::string(closest) + "\"?"));
  }
  return Status::Ok();
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// Typed access to JSON fields that names the file and the field path in every error, e.g.
// "testcases/reduction/edge.json: cases[3].scalars.N: expected an integer, got \"4k\"".
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "judge/util/expected.h"

namespace judge {

using Json = nlohmann::json;

class JsonContext {
 public:
  JsonContext(std::string file, std::string path) : file_(std::move(file)), path_(std::move(path)) {}
  JsonContext Child(const std::string& key) const { return {file_, path_.empty() ? key : path_ + "." + key}; }
  JsonContext Index(size_t i) const { return {file_, path_ + "[" + std::to_string(i) + "]"}; }
  Error Fail(const std::string& why) const {
    return MakeError(ErrorCode::kBadInput, file_ + ": " + (path_.empty() ? "(top level)" : path_) + ": " + why);
  }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::string path_;
};

std::string JsonTypeName(const Json& j);
// A JSON file the judge reads (problem, testcases, grading policy, batch results) is at most this:
// parsed, a document takes several times its size in memory.
inline constexpr uint64_t kMaxJsonBytes = uint64_t(64) << 20;
Expected<Json> ParseJsonFile(const std::string& path);  // with line/column on syntax errors

Expected<const Json*> RequireField(const Json& obj, const std::string& key, const JsonContext& ctx);
Expected<std::string> GetString(const Json& obj, const std::string& key, const JsonContext& ctx,
                                std::optional<std::string> fallback = std::nullopt);
Expected<double> GetNumber(const Json& obj, const std::string& key, const JsonContext& ctx,
                           std::optional<double> fallback = std::nullopt);
Expected<int64_t> GetInteger(const Json& obj, const std::string& key, const JsonContext& ctx,
                             std::optional<int64_t> fallback = std::nullopt);
Expected<const Json*> GetArray(const Json& obj, const std::string& key, const JsonContext& ctx);
Expected<const Json*> GetObject(const Json& obj, const std::string& key, const JsonContext& ctx);

}  // namespace judge

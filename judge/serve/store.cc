// SPDX-License-Identifier: MIT
#include "judge/serve/store.h"

#include <sys/stat.h>

#include <array>
#include <filesystem>
#include <system_error>

#include "judge/serve/sql.h"

namespace judge::serve {
namespace {

constexpr std::array<std::string_view, 4> kStatusNames = {"queued", "compiling", "running", "done"};

// Connections per store: a writer and a few readers side by side (the service's HTTP threads read
// status while the grader writes).
constexpr int kPoolSize = 4;

Expected<std::string> MakeDataDir(const std::string& data_dir) {
  if (data_dir.empty()) {
    return MakeError(ErrorCode::kUsage, "no data folder and no database URL: give one (the folder holds judge.db)");
  }
  std::error_code ec;
  const bool made = std::filesystem::create_directories(data_dir, ec);
  if (ec) {
    return MakeError(ErrorCode::kIo, "cannot make the data folder " + data_dir + ": " + ec.message() +
                                         " (choose a folder this user may write)");
  }
  // Submissions' sources and token hashes are in it: the owner's only.
  if (made && ::chmod(data_dir.c_str(), 0700) != 0) {
    return MakeError(ErrorCode::kIo, "cannot make the data folder " + data_dir + " private (chmod 0700)");
  }
  return (std::filesystem::path(data_dir) / "judge.db").string();
}

}  // namespace

std::string_view StatusName(SubmissionStatus status) { return kStatusNames.at(static_cast<size_t>(status)); }

std::optional<SubmissionStatus> ParseStatus(std::string_view name) {
  for (size_t i = 0; i < kStatusNames.size(); ++i) {
    if (kStatusNames[i] == name) return static_cast<SubmissionStatus>(i);
  }
  return std::nullopt;
}

Expected<std::unique_ptr<Store>> OpenStore(const std::string& data_dir, const std::string& database_url) {
  if (!database_url.empty()) {
    return sql::OpenSqlStore([database_url] { return sql::OpenPostgres(database_url); }, kPoolSize,
                             "'" + sql::RedactConninfo(database_url) + "'");
  }
  auto path = MakeDataDir(data_dir);
  if (!path.ok()) return path.error();
  return sql::OpenSqlStore([file = *path] { return sql::OpenSqlite(file); }, kPoolSize, *path);
}

}  // namespace judge::serve

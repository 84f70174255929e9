// SPDX-License-Identifier: MIT
#include "judge/util/fs.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace judge {
namespace fs = std::filesystem;

Expected<std::string> ReadFile(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return MakeError(ErrorCode::kUsage, "file not found: " + path);
  if (fs::is_directory(path, ec)) return MakeError(ErrorCode::kUsage, path + " is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kIo, "cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Status RenameAtomic(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0)
    return MakeError(ErrorCode::kIo, "rename " + from + " -> " + to + ": " + std::strerror(errno));
  return Status::Ok();
}

Status WriteFileAtomic(const std::string& path, const std::string& contents) {
  fs::path target(path);
  if (target.has_parent_path()) JUDGE_TRY(MakeDirs(target.parent_path().string()));
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return MakeError(ErrorCode::kIo, "cannot write " + tmp + ": " + std::strerror(errno));
    out << contents;
    if (!out.flush()) return MakeError(ErrorCode::kIo, "write failed for " + tmp);
  }
  return RenameAtomic(tmp, path);
}

Status MakeDirs(const std::string& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return MakeError(ErrorCode::kIo, "cannot create directory " + path + ": " + ec.message());
  return Status::Ok();
}

Expected<std::string> MakeTempDir(const std::string& parent, const std::string& prefix) {
  JUDGE_TRY(MakeDirs(parent));
  std::string templ = (fs::path(parent) / (prefix + "XXXXXX")).string();
  if (::mkdtemp(templ.data()) == nullptr)
    return MakeError(ErrorCode::kIo, "mkdtemp in " + parent + ": " + std::strerror(errno));
  return templ;
}

void RemoveTree(const std::string& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
}

std::string Basename(const std::string& path) { return fs::path(path).filename().string(); }
std::string StemOf(const std::string& path) { return fs::path(path).stem().string(); }
std::string ExtensionOf(const std::string& path) { return fs::path(path).extension().string(); }

std::string ExecutablePath() {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("/proc/self/exe") : p.string();
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/util/fs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace judge {
namespace fs = std::filesystem;

namespace {

std::string OsReason() { return std::strerror(errno); }

const char* TypeOf(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  return "not a regular file";
}

Status OnlyRegular(const std::string& path, const struct stat& st) {
  if (S_ISDIR(st.st_mode)) return MakeError(ErrorCode::kUsage, path + " is a directory, expected a file");
  if (!S_ISREG(st.st_mode))
    return MakeError(ErrorCode::kUsage, path + " is " + TypeOf(st.st_mode) + ": the judge reads only regular files");
  return Status::Ok();
}

Error TooLarge(const std::string& path, uint64_t max_bytes) {
  return MakeError(ErrorCode::kBadInput,
                   path + " is larger than the judge's limit of " + FormatBytes(max_bytes) + " for a file it reads");
}

// Closes on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

Status WriteAll(int fd, const std::string& contents, const std::string& path) {
  const char* p = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t w = ::write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return MakeError(ErrorCode::kIo, "cannot write " + path + ": " + OsReason());
    p += w;
    left -= size_t(w);
  }
  return Status::Ok();
}

Status WriteInPlace(const std::string& path, const std::string& contents) {
  // O_NONBLOCK: a FIFO no one reads is an error at once, not a judge that waits forever; the
  // writes block again (a reader that is slow is still a reader).
  Fd f{::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)};
  if (f.fd < 0)
    return MakeError(ErrorCode::kIo,
                     "cannot write " + path + ": " + (errno == ENXIO ? "a FIFO that no one reads" : OsReason()));
  ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);
  JUDGE_TRY(WriteAll(f.fd, contents, path));
  int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) return MakeError(ErrorCode::kIo, "cannot write " + path + ": " + OsReason());
  return Status::Ok();
}

}  // namespace

std::string FormatBytes(uint64_t bytes) {
  if (bytes >= (uint64_t(1) << 20) && bytes % (uint64_t(1) << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

Expected<std::string> ReadFile(const std::string& path, uint64_t max_bytes) {
  // stat before open: opening a device or a FIFO may itself block or have effects.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return MakeError(ErrorCode::kUsage, "file not found: " + path);
    return MakeError(ErrorCode::kIo, "cannot read " + path + ": " + OsReason());
  }
  JUDGE_TRY(OnlyRegular(path, st));
  if (uint64_t(st.st_size) > max_bytes) return TooLarge(path, max_bytes);
  // O_NONBLOCK: should the path have become a FIFO since the stat, open does not wait for a writer.
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)};
  if (f.fd < 0) return MakeError(ErrorCode::kIo, "cannot read " + path + ": " + OsReason());
  if (::fstat(f.fd, &st) != 0) return MakeError(ErrorCode::kIo, "cannot read " + path + ": " + OsReason());
  JUDGE_TRY(OnlyRegular(path, st));
  std::string text;
  text.reserve(size_t(std::min<uint64_t>(uint64_t(st.st_size), max_bytes)));
  char buf[1 << 16];
  for (;;) {
    ssize_t r = ::read(f.fd, buf, sizeof buf);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return MakeError(ErrorCode::kIo, "cannot read " + path + ": " + OsReason());
    if (r == 0) return text;
    if (text.size() + size_t(r) > max_bytes) return TooLarge(path, max_bytes);  // it grew while read
    text.append(buf, size_t(r));
  }
}

Status RenameAtomic(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0)
    return MakeError(ErrorCode::kIo, "rename " + from + " -> " + to + ": " + OsReason());
  return Status::Ok();
}

Status WriteFileAtomic(const std::string& path, const std::string& contents) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return MakeError(ErrorCode::kUsage, "cannot write " + path + ": it is a directory");
    if (!S_ISREG(st.st_mode)) return WriteInPlace(path, contents);
  }
  fs::path target(path);
  if (target.has_parent_path()) JUDGE_TRY(MakeDirs(target.parent_path().string()));
  // Unique per host, process and call: a batch's runner threads write side by side, and the shards
  // of a Slurm array on several nodes write one plan.json on a shared file system (their pids may
  // be equal; O_EXCL would then fail one of them).
  static std::atomic<uint64_t> serial{0};
  static const std::string host = [] {
    char name[256] = {};
    return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string("host");
  }();
  std::string tmp = path + ".tmp." + host + "." + std::to_string(::getpid()) + "." + std::to_string(serial++);
  Fd f{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)};
  if (f.fd < 0) return MakeError(ErrorCode::kIo, "cannot write " + path + ": " + OsReason());
  Status written = WriteAll(f.fd, contents, path);
  int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0 && written) written = MakeError(ErrorCode::kIo, "cannot write " + path + ": " + OsReason());
  if (written && std::rename(tmp.c_str(), path.c_str()) != 0)
    written = MakeError(ErrorCode::kIo, "cannot write " + path + ": " + OsReason());
  if (!written) ::unlink(tmp.c_str());
  return written;
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
  if (::mkdtemp(templ.data()) == nullptr) return MakeError(ErrorCode::kIo, "mkdtemp in " + parent + ": " + OsReason());
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

int64_t HostMemoryAvailableBytes() {
  auto meminfo = ReadFile("/proc/meminfo", 1 << 16);
  if (!meminfo) return 0;
  const auto at = meminfo->find("MemAvailable:");
  if (at == std::string::npos) return 0;
  return std::strtoll(meminfo->c_str() + at + std::strlen("MemAvailable:"), nullptr, 10) * 1024;  // in kB
}

}  // namespace judge

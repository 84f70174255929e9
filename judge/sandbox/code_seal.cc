// SPDX-License-Identifier: MIT
#include "judge/sandbox/code_seal.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "judge/util/fs.h"

namespace judge {
namespace {

#ifndef SYS_mseal
constexpr long SYS_mseal = 462;  // x86_64 and aarch64 alike; glibc headers before 2.40 lack it
#endif

bool SealablePath(const std::string& path) {
  if (path == "[vdso]" || path == "[vvar]" || path == "[vvar_vclock]") return true;
  if (path.empty() || path[0] != '/') return false;  // anonymous, [heap], [stack], ...
  if (path.rfind("/dev/", 0) == 0 || path.rfind("/memfd:", 0) == 0) return false;
  return path.find(" (deleted)") == std::string::npos;
}

}  // namespace

std::vector<MappedRange> SealableRanges(const std::string& proc_maps) {
  std::vector<MappedRange> out;
  std::istringstream lines(proc_maps);
  for (std::string line; std::getline(lines, line);) {
    // begin-end perms offset dev inode [path, which may hold spaces]
    std::istringstream fields(line);
    std::string span, perms, offset, dev, inode;
    if (!(fields >> span >> perms >> offset >> dev >> inode)) continue;
    std::string path;
    std::getline(fields >> std::ws, path);
    size_t dash = span.find('-');
    if (dash == std::string::npos || perms.size() != 4) continue;
    if (perms[1] == 'w' || perms[3] != 'p' || !SealablePath(path)) continue;
    MappedRange r;
    try {
      r.begin = uintptr_t(std::stoull(span.substr(0, dash), nullptr, 16));
      r.end = uintptr_t(std::stoull(span.substr(dash + 1), nullptr, 16));
    } catch (const std::exception&) {
      continue;
    }
    if (r.end <= r.begin) continue;
    r.perms = perms;
    r.path = path;
    out.push_back(std::move(r));
  }
  return out;
}

Protection SealCode() {
  auto maps = ReadFile("/proc/self/maps");
  if (!maps) return {"code_seal", false, "cannot read /proc/self/maps: " + maps.error().message};
  int sealed = 0;
  for (const MappedRange& r : SealableRanges(*maps)) {
    if (::syscall(SYS_mseal, r.begin, r.end - r.begin, 0) == 0) {
      ++sealed;
      continue;
    }
    if (errno == ENOSYS) return {"code_seal", false, "the kernel has no mseal (Linux 6.10 or later has)"};
    return {"code_seal", false, "mseal " + r.path + " (" + r.perms + "): " + std::strerror(errno)};
  }
  return {"code_seal", true,
          std::to_string(sealed) +
              " mappings sealed (code, read-only data, relocation tables, vDSO): none can be made writable, "
              "remapped or unmapped"};
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <string>

#include "judge/util/expected.h"

namespace judge {

// What one ReadFile takes at most unless its caller says less: more than any submission, library
// or testcase folder needs, far less than the memory of a grading machine.
inline constexpr uint64_t kMaxReadBytes = uint64_t(256) << 20;

// The one rule for reading a file the judge is given: a regular file only (a FIFO would block the
// judge, a device such as /dev/zero never ends), whole, and at most `max_bytes`; an error names
// the file, and the limit when it is the limit that refused it.
Expected<std::string> ReadFile(const std::string& path, uint64_t max_bytes = kMaxReadBytes);
// Write-temp-then-rename in the target's folder: a concurrent reader sees the old file or the
// whole new one, never half of it (ccache's rule for cache entries). A target that exists and is
// not a regular file (/dev/null, /dev/stdout, a pipe) is written in place: there is nothing to
// replace atomically, and a rename would replace the device node itself. Errors name the file and
// the operating system's reason.
Status WriteFileAtomic(const std::string& path, const std::string& contents);
Status RenameAtomic(const std::string& from, const std::string& to);
Status MakeDirs(const std::string& path);
// A fresh private directory under `parent` (mkdtemp).
Expected<std::string> MakeTempDir(const std::string& parent, const std::string& prefix);
void RemoveTree(const std::string& path);
std::string Basename(const std::string& path);
std::string StemOf(const std::string& path);       // "a/b/06_warp_unroll.cu" -> "06_warp_unroll"
std::string ExtensionOf(const std::string& path);  // ".cu"
std::string ExecutablePath();                      // /proc/self/exe, resolved
std::string FormatBytes(uint64_t bytes);           // "256 MiB", "3 KiB", "17 bytes"
int64_t HostMemoryAvailableBytes();                // /proc/meminfo's MemAvailable; 0: unknown

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
#include <string>

#include "judge/util/expected.h"

namespace judge {

Expected<std::string> ReadFile(const std::string& path);
// Write-temp-then-rename in the target's folder: a concurrent reader sees the old file or the
// whole new one, never half of it (ccache's rule for cache entries).
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

}  // namespace judge

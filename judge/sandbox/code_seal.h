// SPDX-License-Identifier: MIT
#pragma once
// Code that cannot be changed: before the submission's library is loaded, every private mapping
// of a file that is not writable (code, read-only data, the relocation tables RELRO made read-only:
// the GOT of a library bound at load) and the kernel's vDSO are sealed with mseal(2), so no later
// mprotect, munmap or mmap over them succeeds, not even for the submission's static constructors.
// With the judge linked -z now, that covers the harness's code and every function pointer the
// loader resolved: hooking clock_gettime, the events or the harness by rewriting them fails.
// What it cannot cover: writable data (a runtime's own tables of function pointers, the harness's
// heap). Those stay writable by anything in the process, which is why the judge's own clock,
// in another process, has the last word on time (docs/SECURITY.md).
#include <cstdint>
#include <string>
#include <vector>

#include "judge/util/confine.h"

namespace judge {

struct MappedRange {
  uintptr_t begin = 0, end = 0;
  std::string perms;  // "r-xp"
  std::string path;   // file, "[vdso]", or empty for anonymous memory
};

// The ranges of /proc/self/maps text that are sealed: private, not writable, backed by a regular
// file (not a device: drivers unmap their own) or one of the kernel's vDSO mappings. Anonymous
// memory is left alone: thread stacks and their guard pages are unmapped when threads end.
std::vector<MappedRange> SealableRanges(const std::string& proc_maps);

// Seals SealableRanges() of this process. Inactive, saying why, where the kernel has no mseal
// (before Linux 6.10) or /proc/self/maps cannot be read.
Protection SealCode();

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// Reads the exported function names of a shared library from its ELF .dynsym section, so the judge
// can check for `solve` without dlopen-ing untrusted code (whose static constructors would run).
#include <string>
#include <vector>

#include "judge/util/expected.h"

namespace judge {

Expected<std::vector<std::string>> ReadExportedFunctions(const std::string& so_path);

// "_Z5solvePKfPfi" -> "solve(float const*, float*, int)"; the input itself when not mangled.
std::string Demangle(const std::string& symbol);

struct EntryPointCheck {
  bool found = false;
  std::string message;  // for CE: what is wrong and how to fix it
};

// Looks for an unmangled `name`; when only a C++-mangled one exists, says so.
EntryPointCheck CheckEntryPoint(const std::vector<std::string>& exported, const std::string& name,
                                const std::string& expected_declaration);

}  // namespace judge

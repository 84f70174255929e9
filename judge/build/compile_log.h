// SPDX-License-Identifier: MIT
#pragma once
// Compiler diagnostics as a report may show them. A diagnostic located in a file other than the
// submission keeps its location and message but loses the quoted source line and caret under it,
// so no report shows the content of a file the submission merely included (the sandbox lets the
// compiler read only the toolchain, but the filter holds without it too). The submission's own
// diagnostics are left exactly as the compiler wrote them. Understands gcc and clang
// ("file:line:col: error: ...", quotes with or without the "  12 | " gutter) and nvcc's front end
// ("file(line): error: ...", the quoted line then a caret line).
#include <string>

namespace judge {

std::string WithoutForeignSourceLines(const std::string& log, const std::string& submission_path);

}  // namespace judge

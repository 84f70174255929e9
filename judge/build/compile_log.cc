// SPDX-License-Identifier: MIT
#include "judge/build/compile_log.h"

#include <cctype>
#include <sstream>
#include <string_view>
#include <vector>

namespace judge {
namespace {

// Parsed by hand, not with std::regex: libstdc++'s matcher recurses per character and a quoted
// source line may be very long.

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// "error: ...", "warning #177-D: ...", "fatal error: ..." at `at`.
bool StartsWithKind(std::string_view line, size_t at) {
  for (std::string_view kind :
       {"catastrophic error", "internal error", "fatal error", "error", "warning", "note", "remark"}) {
    if (line.substr(at, kind.size()) != kind) continue;
    size_t end = at + kind.size();
    if (end == line.size() || !std::isalnum(static_cast<unsigned char>(line[end]))) return true;
  }
  return false;
}

size_t SkipDigits(std::string_view line, size_t at) {
  while (at < line.size() && IsDigit(line[at])) ++at;
  return at;
}

// The file a diagnostic is located in: "file:12:5: error: ..." (gcc, clang), "file(12): error: ..."
// (nvcc's front end). False for any other line. Compilers print a location from the first column
// and indent the source lines they quote, so an indented line is never a location.
bool DiagnosticFile(std::string_view line, std::string* file) {
  if (line.empty() || std::isspace(static_cast<unsigned char>(line[0]))) return false;
  for (size_t at = 1; at < line.size(); ++at) {
    size_t end = std::string_view::npos;
    if (line[at] == '(') {
      size_t digits = SkipDigits(line, at + 1);
      if (digits > at + 1 && line.substr(digits, 3) == "): ") end = digits + 3;
    } else if (line[at] == ':') {
      size_t digits = SkipDigits(line, at + 1);
      if (digits > at + 1 && digits < line.size() && line[digits] == ':') {
        size_t column = SkipDigits(line, digits + 1);
        if (column > digits + 1 && line.substr(column, 2) == ": ")
          end = column + 2;
        else if (line.substr(digits, 2) == ": ")
          end = digits + 2;
      }
    }
    if (end != std::string_view::npos && StartsWithKind(line, end)) {
      *file = std::string(line.substr(0, at));
      return true;
    }
  }
  return false;
}

// gcc's quoted lines and the caret and fix-it lines under them: "  12 | text", "     |   ^~~",
// "  +++ |+#include <cstdio>".
bool IsGutterLine(std::string_view line) {
  size_t at = line.find_first_not_of(' ');
  if (at == std::string_view::npos) return false;
  size_t token = line.substr(at, 3) == "+++" ? at + 3 : SkipDigits(line, at);
  if (token == at) return at > 0 && line[at] == '|';
  return line.substr(token, 2) == " |";
}

// A caret line without a gutter (nvcc, clang, old gcc): only blanks, ^ and ~.
bool IsCaretLine(std::string_view line) {
  return line.find('^') != std::string_view::npos && line.find_first_not_of(" \t^~") == std::string_view::npos;
}

}  // namespace

std::string WithoutForeignSourceLines(const std::string& log, const std::string& submission_path) {
  std::vector<std::string> kept;
  bool foreign = false;
  size_t diagnostic_start = 0;  // the first line kept after the current diagnostic's location
  std::stringstream in(log);
  for (std::string line; std::getline(in, line);) {
    std::string file;
    if (DiagnosticFile(line, &file)) {
      foreign = file != submission_path;
      kept.push_back(line);
      diagnostic_start = kept.size();
      continue;
    }
    if (foreign && IsGutterLine(line)) continue;
    if (foreign && IsCaretLine(line)) {
      // Without a gutter the quoted source line is the one right above its caret.
      if (kept.size() > diagnostic_start) kept.pop_back();
      continue;
    }
    kept.push_back(line);
  }
  std::string out;
  for (const auto& line : kept) out += line + "\n";
  if (!log.empty() && log.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

}  // namespace judge

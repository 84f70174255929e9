// SPDX-License-Identifier: MIT
#include "judge/serve/tokens.h"

#include <sys/random.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <utility>

#include "judge/util/sha256.h"

namespace judge::serve {
namespace {

constexpr std::string_view kTokenPrefix = "jt_";
constexpr size_t kTokenBytes = 32;
constexpr size_t kMaxName = 64;
constexpr size_t kMaxAlias = 64;
constexpr std::array<std::string_view, 3> kColumns = {"name", "alias", "admin"};

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

Error LineError(int line, const std::string& message) {
  return MakeError(ErrorCode::kBadInput, "roster line " + std::to_string(line) + ": " + message);
}

// One CSV line's fields: split at commas outside quotes; a quoted field's "" is one quote.
Expected<std::vector<std::string>> SplitFields(std::string_view text, int line) {
  std::vector<std::string> fields;
  size_t i = 0;
  while (true) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    std::string field;
    if (i < text.size() && text[i] == '"') {
      for (++i;; ++i) {
        if (i >= text.size()) return LineError(line, "a quoted field has no closing quote: end it with \"");
        if (text[i] == '"' && i + 1 < text.size() && text[i + 1] == '"') {
          field.push_back('"');
          ++i;
        } else if (text[i] == '"') {
          ++i;
          break;
        } else {
          field.push_back(text[i]);
        }
      }
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
      if (i < text.size() && text[i] != ',')
        return LineError(line, "text after a quoted field: put a comma after the closing quote");
    } else {
      const size_t comma = text.find(',', i);
      field = std::string(Trim(text.substr(i, comma == std::string_view::npos ? std::string_view::npos : comma - i)));
      i = comma == std::string_view::npos ? text.size() : comma;
    }
    fields.push_back(std::move(field));
    if (i >= text.size()) return fields;
    ++i;  // the comma
  }
}

std::optional<bool> ParseAdmin(std::string_view text) {
  const std::string word = Lower(text);
  if (word.empty() || word == "no" || word == "false" || word == "0") return false;
  if (word == "yes" || word == "true" || word == "1") return true;
  return std::nullopt;
}

bool IsHeader(const std::vector<std::string>& fields) {
  if (fields.size() > kColumns.size()) return false;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (Lower(fields[i]) != kColumns[i]) return false;
  }
  return true;
}

Expected<RosterRow> ParseRow(const std::vector<std::string>& fields, int line) {
  if (fields.size() > kColumns.size()) {
    return LineError(line, std::to_string(fields.size()) +
                               " columns; a row is name[,alias[,admin]] (quote an alias that has a comma)");
  }
  RosterRow row{fields[0], fields.size() > 1 ? fields[1] : "", false, line};
  if (!IsValidName(row.name)) {
    return LineError(
        line, "name '" + row.name + "' is not 1 to 64 of A-Za-z0-9._@- (use the login, e.g. alice or a.b@uni.edu)");
  }
  if (row.alias.size() > kMaxAlias) return LineError(line, "alias longer than 64 bytes: shorten it");
  for (unsigned char c : row.alias) {
    if (c < 0x20 || c == 0x7f) return LineError(line, "alias has a control character: remove it");
  }
  auto admin = ParseAdmin(fields.size() > 2 ? fields[2] : "");
  if (!admin) return LineError(line, "admin '" + fields[2] + "' is not one of yes/no/true/false/1/0");
  row.admin = *admin;
  return row;
}

}  // namespace

std::string RandomBytes(size_t n) {
  std::string bytes(n, '\0');
  size_t got = 0;
  while (got < n) {
    const ssize_t r = getrandom(bytes.data() + got, n - got, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      std::fprintf(stderr, "judge: getrandom failed (%s): no secret can be made without it\n", std::strerror(errno));
      std::abort();
    }
    got += static_cast<size_t>(r);
  }
  return bytes;
}

std::string NewToken() { return std::string(kTokenPrefix) + Hex(RandomBytes(kTokenBytes)); }

std::string HashToken(std::string_view token) { return Sha256Hex(token); }

bool IsValidName(std::string_view name) {
  if (name.empty() || name.size() > kMaxName) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '@' || c == '-';
    if (!ok) return false;
  }
  return true;
}

Expected<std::vector<RosterRow>> ParseRoster(std::string_view csv) {
  std::vector<RosterRow> rows;
  std::map<std::string, int> seen;  // name -> line
  bool first = true;
  int line = 0;
  for (size_t start = 0; start < csv.size();) {
    const size_t end = std::min(csv.find('\n', start), csv.size());
    const std::string_view text = csv.substr(start, end - start);
    start = end + 1;
    ++line;
    if (Trim(text).empty()) continue;
    auto fields = SplitFields(text, line);
    if (!fields.ok()) return fields.error();
    if (std::exchange(first, false) && IsHeader(*fields)) continue;
    auto row = ParseRow(*fields, line);
    if (!row.ok()) return row.error();
    if (auto [it, fresh] = seen.emplace(row->name, line); !fresh) {
      return LineError(
          line, "name '" + row->name + "' is on line " + std::to_string(it->second) + " already: list each name once");
    }
    rows.push_back(std::move(*row));
  }
  if (rows.empty())
    return MakeError(ErrorCode::kBadInput, "the roster lists no one: write one name[,alias[,admin]] a line");
  return rows;
}

}  // namespace judge::serve

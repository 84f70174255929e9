// SPDX-License-Identifier: MIT
#include "judge/util/utf8.h"

#include <cstdint>

namespace judge {
namespace {

// The length of the valid UTF-8 sequence at the start of `s` (1 to 4), or 0 when there is none;
// then `*maximal` is how many bytes a replacement character stands for (at least 1).
size_t ValidSequence(std::string_view s, size_t* maximal) {
  auto byte = [&](size_t i) { return uint8_t(s[i]); };
  const uint8_t b0 = byte(0);
  *maximal = 1;
  if (b0 < 0x80) return 1;
  size_t length = 0;
  uint8_t lo = 0x80, hi = 0xBF;  // the range of the second byte (Unicode's table 3-7)
  if (b0 >= 0xC2 && b0 <= 0xDF)
    length = 2;
  else if (b0 >= 0xE0 && b0 <= 0xEF)
    length = 3, lo = b0 == 0xE0 ? 0xA0 : 0x80, hi = b0 == 0xED ? 0x9F : 0xBF;
  else if (b0 >= 0xF0 && b0 <= 0xF4)
    length = 4, lo = b0 == 0xF0 ? 0x90 : 0x80, hi = b0 == 0xF4 ? 0x8F : 0xBF;
  else
    return 0;
  for (size_t i = 1; i < length; ++i) {
    const bool ok = i < s.size() && byte(i) >= (i == 1 ? lo : 0x80) && byte(i) <= (i == 1 ? hi : 0xBF);
    if (!ok) return 0;
    *maximal = i + 1;
  }
  return length;
}

}  // namespace

bool IsValidUtf8(std::string_view text) {
  for (size_t at = 0, maximal = 0; at < text.size();) {
    size_t n = ValidSequence(text.substr(at), &maximal);
    if (n == 0) return false;
    at += n;
  }
  return true;
}

std::string ValidUtf8(std::string_view text) {
  if (IsValidUtf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t at = 0, maximal = 0; at < text.size();) {
    size_t n = ValidSequence(text.substr(at), &maximal);
    if (n) {
      out.append(text.substr(at, n));
      at += n;
    } else {
      out += "\xEF\xBF\xBD";
      at += maximal;
    }
  }
  return out;
}

std::string ForTerminal(std::string_view text, size_t max_bytes) {
  const bool cut = text.size() > max_bytes;
  if (cut) {  // at a character's start: back over continuation bytes (10xxxxxx), at most 3
    size_t keep = max_bytes;
    while (keep > 0 && max_bytes - keep < 3 && (uint8_t(text[keep]) & 0xC0) == 0x80) --keep;
    text = text.substr(0, (uint8_t(text[keep]) & 0xC0) == 0x80 ? max_bytes : keep);
  }
  std::string valid = ValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  static const char* hex = "0123456789abcdef";
  for (size_t i = 0; i < valid.size(); ++i) {
    const auto b = uint8_t(valid[i]);
    if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7F) {
      out += "\\x";
      out += hex[b >> 4];
      out += hex[b & 15];
    } else if (b == 0xC2 && i + 1 < valid.size() && uint8_t(valid[i + 1]) >= 0x80 && uint8_t(valid[i + 1]) <= 0x9F) {
      out += "\\u00";
      out += hex[uint8_t(valid[i + 1]) >> 4];
      out += hex[uint8_t(valid[i + 1]) & 15];
      ++i;
    } else {
      out += char(b);
    }
  }
  if (cut) out += "...";
  return out;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/problem/sample_header.h"

#include <sstream>

#include "judge/util/fs.h"

namespace judge {
namespace {

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

SampleHeader ParseSampleHeader(const std::string& text) {
  SampleHeader h;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    line = Trim(line);
    if (line.empty()) continue;
    if (line.rfind("//", 0) != 0) break;  // the header ends with the first line of code
    std::string body = Trim(line.substr(2));
    size_t colon = body.find(':');
    if (colon == std::string::npos) continue;
    std::string key = body.substr(0, colon), value = Trim(body.substr(colon + 1));
    if (key == "problem" && h.problem.empty()) h.problem = value;
    if (key == "expect" && h.expect.empty()) h.expect = value;
    if (key == "expect-detail" && h.expect_detail.empty()) h.expect_detail = value;
    if (key == "article") h.article += (h.article.empty() ? "" : " ") + value;
  }
  return h;
}

Expected<SampleHeader> ReadSampleHeader(const std::string& path) {
  // A header is a few lines; a submission is at most kMaxReadBytes. Reading the whole is simplest.
  auto text = ReadFile(path);
  if (!text) return text.error();
  return ParseSampleHeader(*text);
}

}  // namespace judge

// SPDX-License-Identifier: MIT
// JUnit XML, as CI servers and course tools read it: one testsuite per submission, one testcase per
// case. A wrong result (WA, MV) is a <failure>; a crash, a limit or a compile error is an <error>;
// a case not run is <skipped>.
#include <cstdio>

#include "judge/report/reporter.h"
#include "judge/util/fs.h"

namespace judge {
namespace {

std::string Xml(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') out += "?";  // not allowed in XML 1.0
        else out += char(c);
    }
  }
  return out;
}

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", s);
  return buf;
}

}  // namespace

void JunitReporter::Write(const RunReport& r, std::ostream& out) const {
  int failures = 0, errors = 0, skipped = 0;
  for (const auto& c : r.cases) {
    if (c.verdict == Verdict::kWrongAnswer || c.verdict == Verdict::kMemoryViolation) ++failures;
    else if (c.verdict == Verdict::kNotRun) ++skipped;
    else if (c.verdict != Verdict::kAccepted) ++errors;
  }
  std::string suite = r.problem + "." + StemOf(r.submission_path);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"gpu-judge\" tests=\"" << r.cases.size() << "\" failures=\"" << failures << "\" errors=\""
      << errors << "\" skipped=\"" << skipped << "\" time=\"" << Seconds(r.seconds) << "\">\n";
  out << "  <testsuite name=\"" << Xml(suite) << "\" tests=\"" << r.cases.size() << "\" failures=\"" << failures
      << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\"" << Seconds(r.seconds)
      << "\" timestamp=\"" << Xml(r.started_at) << "\">\n";
  for (const auto& c : r.cases) {
    out << "    <testcase name=\"" << Xml(c.name) << "\" classname=\"" << Xml(suite) << "\" time=\"" << Seconds(c.seconds) << "\"";
    std::string v(VerdictShort(c.verdict));
    std::string message = v + ": " + std::string(VerdictLong(c.verdict));
    if (c.verdict == Verdict::kAccepted) {
      out << "/>\n";
      continue;
    }
    out << ">\n";
    if (c.verdict == Verdict::kNotRun) out << "      <skipped message=\"" << Xml(c.detail) << "\"/>\n";
    else {
      const char* tag = (c.verdict == Verdict::kWrongAnswer || c.verdict == Verdict::kMemoryViolation) ? "failure" : "error";
      out << "      <" << tag << " message=\"" << Xml(message) << "\" type=\"" << v << "\">" << Xml(c.detail) << "</" << tag << ">\n";
    }
    out << "    </testcase>\n";
  }
  std::string log = r.build.attempted && !r.build.ok ? r.build.log : r.message;
  out << "    <system-out>" << Xml(log) << "</system-out>\n";
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace judge

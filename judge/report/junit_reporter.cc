// SPDX-License-Identifier: MIT
// JUnit XML, as CI servers and course tools read it: one testsuite per submission (a batch writes
// them all in one document), one testcase per case. A wrong result (WA, MV) is a <failure>; a crash, a limit or a
// compile error is an <error>; a case not run is <skipped>.
#include <cstdio>

#include "judge/report/markup.h"
#include "judge/report/reporter.h"
#include "judge/util/fs.h"

namespace judge {
namespace {

std::string Xml(const std::string& s) { return EscapeXml(s); }

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", s);
  return buf;
}

}  // namespace

namespace {

struct Counts {
  int failures = 0, errors = 0, skipped = 0;
};

Counts CountOf(const RunReport& r) {
  Counts n;
  for (const auto& c : r.cases) {
    if (c.verdict == Verdict::kWrongAnswer || c.verdict == Verdict::kMemoryViolation)
      ++n.failures;
    else if (c.verdict == Verdict::kNotRun)
      ++n.skipped;
    else if (c.verdict != Verdict::kAccepted)
      ++n.errors;
  }
  return n;
}

void WriteSuite(const RunReport& r, std::ostream& out) {
  Counts n = CountOf(r);
  std::string suite = r.problem + "." + StemOf(r.submission_path);
  out << "  <testsuite name=\"" << Xml(suite) << "\" tests=\"" << r.cases.size() << "\" failures=\"" << n.failures
      << "\" errors=\"" << n.errors << "\" skipped=\"" << n.skipped << "\" time=\"" << Seconds(r.seconds)
      << "\" timestamp=\"" << Xml(r.started_at) << "\">\n";
  for (const auto& c : r.cases) {
    out << "    <testcase name=\"" << Xml(c.name) << "\" classname=\"" << Xml(suite) << "\" time=\""
        << Seconds(c.seconds) << "\"";
    std::string v(VerdictShort(c.verdict));
    std::string message = v + ": " + std::string(VerdictLong(c.verdict));
    if (c.verdict == Verdict::kAccepted) {
      out << "/>\n";
      continue;
    }
    out << ">\n";
    if (c.verdict == Verdict::kNotRun)
      out << "      <skipped message=\"" << Xml(c.detail) << "\"/>\n";
    else {
      const char* tag =
          (c.verdict == Verdict::kWrongAnswer || c.verdict == Verdict::kMemoryViolation) ? "failure" : "error";
      out << "      <" << tag << " message=\"" << Xml(message) << "\" type=\"" << v << "\">" << Xml(c.detail) << "</"
          << tag << ">\n";
    }
    out << "    </testcase>\n";
  }
  std::string log = r.build.attempted && !r.build.ok ? r.build.log : r.message;
  out << "    <system-out>" << Xml(log) << "</system-out>\n";
  out << "  </testsuite>\n";
}

}  // namespace

void WriteJunit(const std::vector<const RunReport*>& runs, std::ostream& out,
                const std::vector<NotGradedSubmission>& not_graded) {
  Counts total;
  total.errors = int(not_graded.size());
  size_t tests = 0;
  double seconds = 0;
  for (const RunReport* r : runs) {
    Counts n = CountOf(*r);
    total.failures += n.failures;
    total.errors += n.errors;
    total.skipped += n.skipped;
    tests += r->cases.size();
    seconds += r->seconds;
  }
  tests += not_graded.size();
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"gpu-judge\" tests=\"" << tests << "\" failures=\"" << total.failures << "\" errors=\""
      << total.errors << "\" skipped=\"" << total.skipped << "\" time=\"" << Seconds(seconds) << "\">\n";
  for (const RunReport* r : runs) WriteSuite(*r, out);
  for (const auto& s : not_graded)
    out << "  <testsuite name=\"" << Xml(s.name) << "\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" "
        << "time=\"0\">\n    <testcase name=\"not graded\" classname=\"" << Xml(s.name)
        << "\" time=\"0\">\n      <error message=\"not graded\" type=\"NotGraded\">" << Xml(s.reason)
        << "</error>\n    </testcase>\n  </testsuite>\n";
  out << "</testsuites>\n";
}

void JunitReporter::Write(const RunReport& r, std::ostream& out) const { WriteJunit({&r}, out); }

}  // namespace judge

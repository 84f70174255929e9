// SPDX-License-Identifier: MIT
#pragma once
// One Reporter per output format (nvbench's printers); ReporterMultiplex fans one report out to
// several destinations, e.g. a table on stdout and JSON in a file.
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "judge/core/run_report.h"
#include "judge/grade/grading_policy.h"
#include "judge/util/json_fields.h"

namespace judge {

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual std::string Format() const = 0;
  virtual void Write(const RunReport& report, std::ostream& out) const = 0;
};

class TextReporter : public Reporter {
 public:
  explicit TextReporter(bool color = false) : color_(color) {}
  std::string Format() const override { return "text"; }
  void Write(const RunReport& report, std::ostream& out) const override;

 private:
  bool color_;
};

class JsonReporter : public Reporter {
 public:
  std::string Format() const override { return "json"; }
  void Write(const RunReport& report, std::ostream& out) const override;
};

class JunitReporter : public Reporter {
 public:
  std::string Format() const override { return "junit"; }
  void Write(const RunReport& report, std::ostream& out) const override;
};

class GradescopeReporter : public Reporter {
 public:
  explicit GradescopeReporter(GradingPolicy policy = {}) : policy_(std::move(policy)) {}
  std::string Format() const override { return "gradescope"; }
  void Write(const RunReport& report, std::ostream& out) const override;

 private:
  GradingPolicy policy_;
};

// A short Markdown summary (verdict, cases, performance): for a PR comment or a course page.
class MarkdownReporter : public Reporter {
 public:
  std::string Format() const override { return "markdown"; }
  void Write(const RunReport& report, std::ostream& out) const override;
};

// One self-contained HTML page (inline CSS and SVG, nothing fetched) with a bandwidth chart.
class HtmlReporter : public Reporter {
 public:
  std::string Format() const override { return "html"; }
  void Write(const RunReport& report, std::ostream& out) const override;
};

// Gradescope's results.json for one submission, scored by `policy`.
Json GradescopeResults(const RunReport& report, const GradingPolicy& policy = {});

// A submission a batch owed and has no result for (its shard failed, was cancelled or never ran):
// named in every batch file, never given a verdict, which would blame the student.
struct NotGradedSubmission {
  std::string name;
  std::string reason;  // for people: which shard, what to rerun
};

// Gradescope's results.json for a submission that was not graded: no score, so an upload cannot
// record a zero the student did not earn; the output says why.
Json GradescopeNotGraded(const NotGradedSubmission& s, double max_score);

// One JUnit document with a testsuite per run (a batch's junit.xml), and one per submission not
// graded (a single testcase in <error type="NotGraded">: the infrastructure's, not a failure).
void WriteJunit(const std::vector<const RunReport*>& runs, std::ostream& out,
                const std::vector<NotGradedSubmission>& not_graded = {});

// The JSON document (schema "gpu-judge.report", version kReportSchemaVersion).
Json ReportToJson(const RunReport& report);
// Reads it back (what a batch keeps per submission, and what `judge merge` combines): every field
// the reporters use; the worker's captured output and build flags are kept as text only.
Expected<RunReport> ReportFromJson(const Json& j);

struct ReporterOptions {
  bool color = false;     // text: ANSI colours
  GradingPolicy grading;  // gradescope: points
};

// text, json, junit, gradescope, markdown, html; nullptr for an unknown format name.
std::unique_ptr<Reporter> MakeReporter(const std::string& format, const ReporterOptions& options = {});
inline constexpr const char* kReportFormats = "text, json, junit, gradescope, markdown or html";

// The whole document `reporter` makes of `report`: for a file written at once (WriteFileAtomic).
std::string Render(const Reporter& reporter, const RunReport& report);

class ReporterMultiplex {
 public:
  void Add(std::unique_ptr<Reporter> reporter, std::ostream* out) { sinks_.emplace_back(std::move(reporter), out); }
  void Write(const RunReport& report) const;
  bool empty() const { return sinks_.empty(); }

 private:
  std::vector<std::pair<std::unique_ptr<Reporter>, std::ostream*>> sinks_;
};

// The ceilings the report's GPU was measured at (zeros where not measured).
Ceilings CeilingsOf(const RunReport& r);
// The ceiling that binds `c` (CaseResult::bound) in its unit: GB/s or GFLOP/s; 0 when unknown.
double BindingCeiling(const CaseResult& c, const RunReport& r);
// "21% of the 4457 GB/s memory ceiling" or "62% of the 60123 GFLOP/s FP32 ceiling"; "" when unknown.
std::string RooflineText(const CaseResult& c, const RunReport& r);
// "21% mem" / "62% fp32" / "-": the table's short form.
std::string RooflineShort(const CaseResult& c);

// Human-readable quantities shared by the text formats.
std::string FormatMs(double ms);                   // "19.62 us", "7.40 ms", "2.80 s"
std::string FormatCount(int64_t n);                // "4,194,304"
std::string FormatScalars(const ScalarValues& s);  // "N=4,194,304"

}  // namespace judge

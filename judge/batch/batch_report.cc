// SPDX-License-Identifier: MIT
// The batch-level files, built only from the per-submission reports (so a merge of shards and an
// unsharded batch write the same thing): batch.json, leaderboard.md, junit.xml, report.html,
// scores.csv.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "judge/batch/batch.h"
#include "judge/protocol/messages.h"
#include "judge/report/markup.h"
#include "judge/report/reporter.h"
#include "judge/util/fs.h"

namespace judge {
namespace fs = std::filesystem;

namespace {

std::string Fixed(double v, const char* fmt) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// The largest performance case the entries ran: the bandwidth chart's size.
std::string LargestPerformanceCase(const std::vector<BatchEntry>& entries) {
  std::string name;
  int64_t bytes = -1;
  for (const auto& e : entries)
    for (const auto& c : e.report.cases)
      if (c.kind == CaseKind::kPerformance && !c.IsHiddenTwin() && c.min_bytes > bytes) {
        bytes = c.min_bytes;
        name = c.name;
      }
  return name;
}

const CaseResult* FindCase(const RunReport& r, const std::string& name) {
  for (const auto& c : r.cases)
    if (c.name == name) return &c;
  return nullptr;
}

double Ceiling(const std::vector<BatchEntry>& entries) {
  for (const auto& e : entries)
    if (e.report.ceiling_gbps > 0) return e.report.ceiling_gbps;
  return 0;
}

std::string RankText(const LeaderboardRow& row) { return std::to_string(row.rank) + (row.tied ? "=" : ""); }

std::string Csv(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Every submission of the batch in name order: a graded entry, or one of the plan not graded.
struct Row {
  const std::string* name;
  const BatchEntry* entry;           // null when not graded
  const PlannedSubmission* missing;  // null when graded
};

std::vector<Row> Rows(const std::vector<BatchEntry>& entries, const std::vector<PlannedSubmission>& missing) {
  std::vector<Row> rows;
  for (const auto& e : entries) rows.push_back({&e.name, &e, nullptr});
  for (const auto& m : missing) rows.push_back({&m.name, nullptr, &m});
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return *a.name < *b.name; });
  return rows;
}

constexpr char kNotGraded[] = "not graded";

// What a submission could earn: the max_score of one graded with its performance case run.
double MaxPoints(const GradingPolicy& g) { return g.correctness_points + g.performance_points; }

// "2 of 12 submission(s) were not graded: a.cu (shard 1/4), b.cu (shard 1/4)".
std::string IncompleteLine(size_t total, const std::vector<PlannedSubmission>& missing) {
  std::string s = std::to_string(missing.size()) + " of " + std::to_string(total) +
                  " submission(s) were not graded (no verdict: their shard left no result; rerun it, then merge):";
  for (size_t i = 0; i < missing.size(); ++i)
    s += (i ? ", " : " ") + missing[i].name + " (shard " + std::to_string(missing[i].shard) + "/" +
         std::to_string(missing[i].shard_count) + ")";
  return s;
}

std::string Markdown(const std::vector<BatchEntry>& entries, const GradingPolicy& grading,
                     const std::vector<PlannedSubmission>& missing) {
  std::ostringstream o;
  std::map<std::string, int> counts;
  for (const auto& e : entries) counts[std::string(VerdictShort(e.report.verdict))]++;
  o << "# Batch results\n\n" << entries.size() + missing.size() << " submission(s):";
  for (const auto& [v, n] : counts) o << " " << n << " " << v;
  if (!missing.empty()) o << " " << missing.size() << " " << kNotGraded;
  if (!entries.empty() && entries.front().report.device) o << "; " << entries.front().report.device->name;
  if (double c = Ceiling(entries); c > 0) o << "; measured read ceiling " << Fixed(c, "%.0f") << " GB/s";
  o << ".\n\n";
  if (!missing.empty()) o << "**INCOMPLETE: " << IncompleteLine(entries.size() + missing.size(), missing) << "**\n\n";
  o << "## Leaderboard\n\nAccepted submissions by the median of their first performance case; `=` marks a tie: "
       "the 95% intervals of the two medians overlap, so their order is noise.\n\n";
  o << "| rank | submission | median | 95% interval | GB/s |\n|---:|---|---:|---|---:|\n";
  for (const auto& row : Leaderboard(entries)) {
    const CaseResult* perf = row.entry->report.PrimaryPerformanceCase();
    o << "| " << RankText(row) << " | " << row.entry->name << " | " << FormatMs(row.median_ms) << " | "
      << FormatMs(row.low_ms) << " - " << FormatMs(row.high_ms) << " | " << Fixed(perf->gbps, "%.0f") << " |\n";
  }
  o << "\n## Every submission\n\n| submission | verdict | cases accepted | score | judged in "
       "|\n|---|---|---:|---:|---:|\n";
  for (const Row& row : Rows(entries, missing)) {
    if (!row.entry) {
      o << "| " << *row.name << " | **" << kNotGraded << "** (shard " << row.missing->shard << "/"
        << row.missing->shard_count << ") | - | - | - |\n";
      continue;
    }
    const BatchEntry& e = *row.entry;
    int ok = 0;
    for (const auto& c : e.report.cases) ok += c.verdict == Verdict::kAccepted;
    Score s = ScoreRun(e.report, grading);
    o << "| " << e.name << " | " << VerdictShort(e.report.verdict) << " | " << ok << "/" << e.report.cases.size()
      << " | " << Fixed(s.total(), "%.1f") << "/" << Fixed(s.max_total(), "%.0f") << " | "
      << FormatMs(e.report.seconds * 1e3) << " |\n";
  }
  return o.str();
}

std::string Html(const std::vector<BatchEntry>& entries, const GradingPolicy& grading,
                 const std::vector<PlannedSubmission>& missing) {
  std::ostringstream b;
  double ceiling = Ceiling(entries);
  b << "<h1>Batch results</h1>\n";
  if (!missing.empty())
    b << "<p class=\"not-graded\"><strong>INCOMPLETE:</strong> "
      << EscapeXml(IncompleteLine(entries.size() + missing.size(), missing)) << "</p>\n";
  b << "<p class=\"muted\">" << entries.size() + missing.size() << " submission(s)";
  if (!entries.empty() && entries.front().report.device) b << "; " << EscapeXml(entries.front().report.device->name);
  if (ceiling > 0) b << "; measured read ceiling " << Fixed(ceiling, "%.0f") << " GB/s";
  b << "</p>\n";

  std::string big = LargestPerformanceCase(entries);
  BarChart bandwidth;
  bandwidth.title = "Bandwidth per submission at " + big + " (cold L2) against the measured ceiling";
  bandwidth.axis = "GB/s";
  bandwidth.reference = ceiling;
  bandwidth.reference_label = "ceiling " + GbpsText(ceiling);
  BarChart ladder;
  std::string primary;
  for (const auto& e : entries)
    if (const CaseResult* p = e.report.PrimaryPerformanceCase(); p && primary.empty()) primary = p->name;
  ladder.title = "Time per submission at " + primary + " (lower is faster)";
  ladder.axis = "microseconds";
  ladder.log_scale = true;
  for (const auto& e : entries) {
    const CaseResult* c = FindCase(e.report, big);
    const CaseResult* p = FindCase(e.report, primary);
    bool ok = e.report.verdict == Verdict::kAccepted;
    std::string cls = ok ? "bar" : "bar bad";
    if (c && c->gbps > 0)
      bandwidth.bars.push_back(
          {e.name, c->gbps, GbpsText(c->gbps) + (ok ? "" : " (" + std::string(VerdictShort(e.report.verdict)) + ")"),
           cls});
    if (p && p->FigureMs() > 0) ladder.bars.push_back({e.name, p->FigureMs() * 1e3, FormatMs(p->FigureMs()), cls});
  }
  if (!bandwidth.bars.empty()) b << RenderBarChart(bandwidth);
  if (!ladder.bars.empty()) b << RenderBarChart(ladder);

  b << "<h2>Leaderboard</h2>\n<p class=\"muted\">Accepted, unflagged submissions by the median at "
    << EscapeXml(primary)
    << "; \"=\" marks a tie (overlapping 95% intervals).</p>\n<table>\n<tr><th "
       "class=\"num\">rank</th><th>submission</th>"
       "<th class=\"num\">median</th><th>95% interval</th><th class=\"num\">GB/s</th></tr>\n";
  for (const auto& row : Leaderboard(entries))
    b << "<tr><td class=\"num\">" << RankText(row) << "</td><td>" << EscapeXml(row.entry->name)
      << "</td><td class=\"num\">" << FormatMs(row.median_ms) << "</td><td>" << FormatMs(row.low_ms) << " - "
      << FormatMs(row.high_ms) << "</td><td class=\"num\">"
      << Fixed(row.entry->report.PrimaryPerformanceCase()->gbps, "%.0f") << "</td></tr>\n";
  b << "</table>\n<h2>Every submission</h2>\n<table>\n<tr><th>submission</th><th>verdict</th><th "
       "class=\"num\">cases</th>"
       "<th class=\"num\">score</th><th>first problem</th></tr>\n";
  for (const Row& row : Rows(entries, missing)) {
    if (!row.entry) {
      b << "<tr class=\"not-graded\"><td>" << EscapeXml(*row.name) << "</td><td><strong>" << kNotGraded
        << "</strong></td><td class=\"num\">-</td><td class=\"num\">-</td><td>"
        << EscapeXml(NotGradedReason(*row.missing)) << "</td></tr>\n";
      continue;
    }
    const BatchEntry& e = *row.entry;
    int ok = 0;
    std::string first;
    for (const auto& c : e.report.cases) {
      ok += c.verdict == Verdict::kAccepted;
      if (first.empty() && c.verdict != Verdict::kAccepted) first = c.name + ": " + c.detail;
    }
    if (first.empty()) first = e.report.message;
    Score s = ScoreRun(e.report, grading);
    b << "<tr><td><a href=\"submissions/" << EscapeXml(e.dir) << "/report.html\">" << EscapeXml(e.name)
      << "</a></td><td class=\"" << VerdictClass(e.report.verdict) << "\">" << VerdictShort(e.report.verdict)
      << "</td><td class=\"num\">" << ok << "/" << e.report.cases.size() << "</td><td class=\"num\">"
      << Fixed(s.total(), "%.1f") << "/" << Fixed(s.max_total(), "%.0f") << "</td><td>"
      << EscapeXml(first.substr(0, 200)) << "</td></tr>\n";
  }
  b << "</table>\n";
  return HtmlPage("Batch results - gpu-judge", b.str());
}

std::string ScoresCsv(const std::vector<BatchEntry>& entries, const GradingPolicy& grading,
                      const std::vector<PlannedSubmission>& missing) {
  std::ostringstream o;
  o << "submission,verdict,score,max_score,median_us,gbps,rank\n";
  std::map<const BatchEntry*, std::string> ranks;
  for (const auto& row : Leaderboard(entries)) ranks[row.entry] = RankText(row);
  for (const Row& row : Rows(entries, missing)) {
    if (!row.entry) {  // no score: an empty cell, not a 0 the student did not earn
      o << Csv(*row.name) << "," << kNotGraded << ",," << Fixed(MaxPoints(grading), "%.2f") << ",,,\n";
      continue;
    }
    const BatchEntry& e = *row.entry;
    Score s = ScoreRun(e.report, grading);
    const CaseResult* p = e.report.PrimaryPerformanceCase();
    bool timed = p && e.report.verdict == Verdict::kAccepted && p->FigureMs() > 0;
    o << Csv(e.name) << "," << VerdictShort(e.report.verdict) << "," << Fixed(s.total(), "%.2f") << ","
      << Fixed(s.max_total(), "%.2f") << "," << (timed ? Fixed(p->FigureMs() * 1e3, "%.3f") : "") << ","
      << (timed ? Fixed(p->gbps, "%.1f") : "") << "," << (ranks.count(&e) ? ranks[&e] : "") << "\n";
  }
  return o.str();
}

}  // namespace

Json BatchToJson(const std::vector<BatchEntry>& entries, const GradingPolicy& grading,
                 const std::vector<PlannedSubmission>& missing) {
  Json list = Json::array();
  for (const auto& e : entries) {
    int ok = 0;
    for (const auto& c : e.report.cases) ok += c.verdict == Verdict::kAccepted;
    Score s = ScoreRun(e.report, grading);
    Json j = {{"name", e.name},
              {"key", e.key},
              {"dir", "submissions/" + e.dir},
              {"verdict", std::string(VerdictShort(e.report.verdict))},
              {"verdict_code", int(e.report.verdict)},
              {"cases", e.report.cases.size()},
              {"accepted", ok},
              {"score", s.total()},
              {"max_score", s.max_total()},
              {"sha256", e.report.submission_sha256}};
    if (const CaseResult* p = e.report.PrimaryPerformanceCase(); p && p->FigureMs() > 0)
      j["performance"] = {{"case", p->name},
                          {"median_ms", p->FigureMs()},
                          {"noise", p->event.noise},
                          {"gbps", p->gbps},
                          {"flags", p->flags}};
    list.push_back(j);
  }
  Json board = Json::array();
  for (const auto& row : Leaderboard(entries))
    board.push_back({{"rank", row.rank},
                     {"tied", row.tied},
                     {"name", row.entry->name},
                     {"median_ms", row.median_ms},
                     {"low_ms", row.low_ms},
                     {"high_ms", row.high_ms}});
  // Entries keep their fields for every reader; the submissions without a result are apart, each
  // with why, so no program reads a verdict or a score that was never given.
  Json not_graded = Json::array();
  for (const auto& m : missing)
    not_graded.push_back({{"name", m.name},
                          {"key", m.key},
                          {"shard", m.shard},
                          {"shard_count", m.shard_count},
                          {"dir", "submissions/" + EntryFolder(m.name, m.key)},
                          {"reason", NotGradedReason(m)}});
  Json j = {{"schema", "gpu-judge.batch"},
            {"schema_version", 1},
            {"judge_version", kJudgeVersion},
            {"submissions", entries.size() + missing.size()},
            {"graded", entries.size()},
            {"complete", missing.empty()},
            {"not_graded", not_graded},
            {"ceiling_gbps", Ceiling(entries)},
            {"grading", GradingPolicyToJson(grading)},
            {"entries", list},
            {"leaderboard", board}};
  if (!entries.empty() && entries.front().report.device) j["device"] = DeviceInfoToJson(*entries.front().report.device);
  return j;
}

Status WriteBatchFiles(const std::vector<BatchEntry>& entries, const GradingPolicy& grading, const std::string& out_dir,
                       const std::vector<PlannedSubmission>& missing) {
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  // A reader (a course page, the next merge) sees the old file or the new one, never half of one.
  auto write = [&](const std::string& name, const std::string& text) {
    return WriteFileAtomic((fs::path(out_dir) / name).string(), text);
  };
  std::vector<const RunReport*> runs;
  for (const auto& e : entries) runs.push_back(&e.report);
  // An earlier merge into this folder may have left a "not graded" placeholder for a submission
  // graded since: a folder without the report.json that marks a graded one. Left, it would say NOT
  // GRADED beside a complete merge (found in review).
  for (const auto& e : entries) {
    const fs::path dir = fs::path(out_dir) / "submissions" / e.dir;
    if (fs::exists(dir / "results.json", ec) && !fs::exists(dir / "report.json", ec)) fs::remove_all(dir, ec);
  }
  std::vector<NotGradedSubmission> not_graded;
  for (const auto& m : missing) {
    not_graded.push_back({m.name, NotGradedReason(m)});
    // Where the shard writes this submission's results.json when it grades it (and replaces this).
    fs::path dir = fs::path(out_dir) / "submissions" / EntryFolder(m.name, m.key);
    fs::create_directories(dir, ec);
    if (ec) return MakeError(ErrorCode::kIo, "cannot create " + dir.string() + ": " + ec.message());
    // entry.json names it, so the shard's next run removes this folder if the file has changed.
    JUDGE_TRY(WriteFileAtomic((dir / "entry.json").string(), EntryMetaJson(m.name, m.key).dump(2) + "\n"));
    JUDGE_TRY(WriteFileAtomic((dir / "results.json").string(),
                              GradescopeNotGraded(not_graded.back(), MaxPoints(grading)).dump(2) + "\n"));
  }
  std::ostringstream junit;
  WriteJunit(runs, junit, not_graded);
  JUDGE_TRY(write("batch.json", BatchToJson(entries, grading, missing).dump(2) + "\n"));
  JUDGE_TRY(write("leaderboard.md", Markdown(entries, grading, missing)));
  JUDGE_TRY(write("junit.xml", junit.str()));
  JUDGE_TRY(write("report.html", Html(entries, grading, missing)));
  return write("scores.csv", ScoresCsv(entries, grading, missing));
}

}  // namespace judge

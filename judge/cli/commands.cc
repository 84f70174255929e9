// SPDX-License-Identifier: MIT
#include "judge/cli/commands.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <utility>

#include "judge/batch/batch.h"
#include "judge/cli/options.h"
#include "judge/cli/profile_commands.h"
#include "judge/problem/problem.h"
#include "judge/problem/sample_header.h"
#include "judge/report/reporter.h"
#include "judge/run/check_problem.h"
#include "judge/run/compare.h"
#include "judge/run/ladder.h"
#include "judge/run/run_pipeline.h"
#include "judge/testcase/testcase.h"
#include "judge/util/fs.h"
#include "judge/util/utf8.h"
#include "judge/worker/worker_main.h"

namespace judge::cli {
namespace {

void PrintProgress(size_t i, size_t n, const CaseResult& r) {
  std::fprintf(stderr, "[%3zu/%zu] %-26s %-4s %s\n", i + 1, n, r.name.c_str(),
               std::string(VerdictShort(r.verdict)).c_str(), FormatMs(r.event.median).c_str());
}

// What `judge run` writes the report as: --format on stdout, and a file per file option.
struct RunReports {
  ReporterMultiplex on_stdout;
  std::vector<std::pair<OutputFile, std::unique_ptr<Reporter>>> files;

  // Files after stdout: a file that cannot be written leaves the report on stdout.
  Status Write(const RunReport& report) const {
    on_stdout.Write(report);
    for (const auto& [file, reporter] : files) JUDGE_TRY(WriteOutput(file, Render(*reporter, report)));
    return Status::Ok();
  }
};

constexpr std::pair<const char*, const char*> kFileReports[] = {
    {"out", "json"}, {"junit", "junit"}, {"gradescope", "gradescope"}, {"markdown", "markdown"}, {"html", "html"}};

// Checked before the run, so a typo in --format or an unwritable file costs no grading.
Expected<RunReports> PlanReports(const cxxopts::ParseResult& args, const GradingPolicy& grading,
                                 const std::string& submission) {
  RunReports out;
  ReporterOptions options;
  options.grading = grading;
  bool color = ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
  auto formats = SplitCommas(args["format"].as<std::string>());
  if (formats.empty())
    return MakeError(ErrorCode::kUsage,
                     std::string("--format needs a format: ") + kReportFormats + " (several: text,json)");
  for (const auto& format : formats) {
    options.color = color && format == "text";
    auto reporter = MakeReporter(format, options);
    if (!reporter)
      return MakeError(ErrorCode::kUsage, "unknown --format \"" + format + "\" (expected " + kReportFormats + ")");
    out.on_stdout.Add(std::move(reporter), &std::cout);
  }
  options.color = false;
  std::vector<std::string> file_options;
  for (const auto& [option, format] : kFileReports) file_options.push_back(option);
  auto files = OutputFiles(args, file_options, {submission});
  if (!files) return files.error();
  for (auto& file : *files)
    for (const auto& [option, format] : kFileReports)
      if (file.option == option) out.files.emplace_back(std::move(file), MakeReporter(format, options));
  return out;
}

// 130 when interrupted, else what the entries' verdicts make it (judge::BatchExitCode).
int BatchExit(const std::vector<BatchEntry>& entries, const cxxopts::ParseResult& args) {
  return Interrupted() ? int(ExitCode::kInterrupted) : int(BatchExitCode(entries, args.count("strict") > 0));
}

}  // namespace

void AddRunOptions(cxxopts::Options& opts) {
  AddMeasureOptions(opts);
  AddProfileOption(opts);
  AddJudgingOptions(opts);
  opts.add_options()("format",
                     "what to print on stdout: text, json, junit, gradescope, markdown, html, or several (text,json)",
                     cxxopts::value<std::string>()->default_value("text"))(
      "out", "also write the JSON report to this file", cxxopts::value<std::string>())(
      "junit", "also write a JUnit XML report to this file", cxxopts::value<std::string>())(
      "gradescope", "also write Gradescope's results.json (scored by --points) to this file",
      cxxopts::value<std::string>())("markdown", "also write a Markdown summary to this file",
                                     cxxopts::value<std::string>())(
      "html", "also write a self-contained HTML report to this file", cxxopts::value<std::string>())(
      "memory-limit-mb", "host memory the worker may use (default: the problem's limit)", cxxopts::value<double>())(
      "sanitize",
      "also run the small cases under compute-sanitizer: memcheck,racecheck,initcheck,synccheck (or a subset)",
      cxxopts::value<std::string>()->implicit_value("memcheck,racecheck,initcheck,synccheck"))(
      "no-sandbox", "run the compiler and the worker without their sandboxes (debugging only; the report says so)");
}

Expected<int> RunCommand(const Invocation& in) {
  auto o = ReadRunOptions(in, in.operands);
  if (!o) return o.error();
  auto grading = GradingPolicyFor(in, o->problem);
  if (!grading) return grading.error();
  auto reports = PlanReports(in.options, *grading, in.operands[0]);
  if (!reports) return reports.error();
  o->submission = in.operands[0];
  if (!in.options.count("quiet")) {
    o->on_case_done = PrintProgress;
    PrintStages(*o);
  }
  auto report = RunSubmission(*o);
  if (!report) return report.error();
  if (Interrupted()) report->exit_code = ExitCode::kInterrupted;
  JUDGE_TRY(reports->Write(*report));
  return int(report->exit_code);
}

Expected<int> BuildCommand(const Invocation& in) {
  const SharedOptions& s = in.shared;
  auto problem = LoadProblem(s.root + "/problems", ProblemFor(in, in.operands));
  if (!problem) return problem.error();
  if (s.device == DeviceKind::kCuda && s.arch.empty())
    return MakeError(ErrorCode::kUsage, "judge build needs --arch (e.g. sm_90): it does not look at the GPU");
  const std::string& file = in.operands[0];
  auto r = BuildOnly(file, s.device, s.arch, s.cache_dir, *problem);
  if (!r) return r.error();
  std::cout << r->log;
  std::cout << "compile sandbox:";
  for (const auto& p : r->sandbox) std::cout << " " << p.name << (p.active ? "" : " (OFF: " + p.detail + ")");
  std::cout << "\n"
            << (r->ok ? "ok: " + r->library_path + (r->cache_hit ? " (cached)" : "") : "compile error: " + file)
            << "\n";
  return r->ok ? 0 : int(ExitCode::kRejected);
}

void AddCompareOptions(cxxopts::Options& opts) {
  AddMeasureOptions(opts);
  opts.add_options()("case", "the performance case (default: the first one)",
                     cxxopts::value<std::string>()->default_value(""))("rounds", "alternating rounds",
                                                                       cxxopts::value<int>()->default_value("6"));
}

Expected<int> CompareCommand(const Invocation& in) {
  int rounds = in.options["rounds"].as<int>();
  JUDGE_TRY(CheckRange("rounds", rounds, 2, 1000));  // two for an interval
  auto o = ReadRunOptions(in, in.operands);
  if (!o) return o.error();
  ShareAcrossRuns(*o);
  PrintStages(*o);
  const std::string &a = in.operands[0], &b = in.operands[1];
  auto cmp = CompareSubmissions(*o, a, b, in.options["case"].as<std::string>(), rounds);
  if (!cmp) return cmp.error();
  std::cout << "case " << cmp->case_name << ", " << cmp->estimate.rounds
            << " alternating rounds (median of each run, ms):\n";
  for (size_t i = 0; i < cmp->a_ms.size(); ++i)
    std::cout << "  round " << i + 1 << ": A " << FormatMs(cmp->a_ms[i]) << "  B " << FormatMs(cmp->b_ms[i]) << "\n";
  std::cout << cmp->estimate.Describe(StemOf(a), StemOf(b)) << "\n";
  return 0;
}

void AddLadderOptions(cxxopts::Options& opts) {
  AddMeasureOptions(opts);
  AddProfileOption(opts);
  opts.add_options()("cases", "cases to run: names or kinds, or all (default: the performance cases)",
                     cxxopts::value<std::string>()->default_value("performance"))(
      "markdown", "also write the table as Markdown to this file", cxxopts::value<std::string>());
  AddSideBySideOption(opts);
}

Expected<int> LadderCommand(const Invocation& in) {
  std::string dir = in.operands.empty() ? in.shared.root + "/submissions" : in.operands[0];
  auto o = ReadRunOptions(in, {dir});
  if (!o) return o.error();
  ShareAcrossRuns(*o);
  PrintStages(*o);
  o->case_filters = SplitCommas(in.options["cases"].as<std::string>());  // given or the default
  auto files = LadderFiles(dir, o->device);
  if (files.empty()) return MakeError(ErrorCode::kUsage, "no submissions in " + dir);
  auto markdown = OutputFiles(in.options, {"markdown"}, files);
  if (!markdown) return markdown.error();
  auto side_by_side = ReadSideBySide(in.options);
  if (!side_by_side) return side_by_side.error();
  // The ladder's times are its product: side by side only when asked (timed cases still alone).
  auto rungs = ClimbLadder(*o, files, SubmissionsSideBySide(MachineSideBySide(*o, *side_by_side, int(files.size()))));
  if (!rungs) return rungs.error();
  WriteLadderText(*rungs, std::cout);
  for (const OutputFile& file : *markdown) {
    std::ostringstream text;
    WriteLadderMarkdown(*rungs, text);
    JUDGE_TRY(WriteOutput(file, text.str()));
  }
  return Interrupted() ? int(ExitCode::kInterrupted) : 0;
}

void AddBatchOptions(cxxopts::Options& opts) {
  AddMeasureOptions(opts);
  AddProfileOption(opts);
  AddJudgingOptions(opts);
  AddStrictOption(opts);
  opts.add_options()("o,out", "results folder", cxxopts::value<std::string>()->default_value("batch-results"))(
      "shard", "grade only shard I of N (I/N, 0-based); then `judge merge` the results folders",
      cxxopts::value<std::string>())("force", "regrade submissions that already have a result with the same key")(
      "jobs", "parallel compiles (default: the CPUs this process may run on, as a scheduler allotted them)",
      cxxopts::value<int>()->default_value("0"));
}

Expected<int> BatchCommand(const Invocation& in) {
  const cxxopts::ParseResult& args = in.options;
  BatchOptions b;
  b.inputs = in.operands;
  // A batch grades students' files: their headers do not choose the problem (--problem does).
  auto run = ReadRunOptions(in, {});
  if (!run) return run.error();
  b.run = std::move(*run);
  ShareAcrossRuns(b.run);
  b.out_dir = args["out"].as<std::string>();
  b.force = args.count("force") > 0;
  b.compile_jobs = args["jobs"].as<int>();
  JUDGE_TRY(CheckRange("jobs", b.compile_jobs, 0, 1024));
  if (args.count("shard")) JUDGE_TRY(ParseShard(args["shard"].as<std::string>(), &b.shard_index, &b.shard_count));
  auto grading = GradingPolicyFor(in, b.run.problem);
  if (!grading) return grading.error();
  b.grading = *grading;
  if (!args.count("quiet"))
    b.on_progress = [](const BatchProgress& p) { std::fprintf(stderr, "%s\n", p.line.c_str()); };
  auto batch = RunBatch(b);
  if (!batch) return batch.error();
  const std::vector<BatchEntry>& entries = batch->entries;
  const std::string subs = b.out_dir + "/submissions";
  // Only what this run wrote.
  if (batch->batch_files_written) {
    std::cerr << entries.size() << " submission(s); leaderboard and reports in " << b.out_dir
              << " (report.html, leaderboard.md, junit.xml, batch.json, scores.csv)\n";
  } else if (Interrupted()) {
    size_t graded = size_t(std::count_if(entries.begin(), entries.end(), [](const BatchEntry& e) { return !e.kept; }));
    std::cerr << "interrupted: " << graded << " submission(s) graded and written to " << subs
              << (graded < entries.size() ? " (" + std::to_string(entries.size() - graded) + " more kept from earlier)"
                                          : "")
              << (b.shard_count > 1 ? "" : "; no leaderboard or batch reports were written")
              << ": run the same command again to grade the rest\n";
  } else {
    std::cerr << "shard " << b.shard_index << "/" << b.shard_count << ": " << entries.size() << " submission(s) in "
              << subs << "; when every shard is done: judge merge <their results folders> --out <folder>\n";
  }
  return BatchExit(entries, args);
}

void AddMergeOptions(cxxopts::Options& opts) {
  AddPointsOption(opts);
  AddStrictOption(opts);
  opts.add_options()("o,out", "where to write the batch files",
                     cxxopts::value<std::string>()->default_value("batch-results"));
}

// What the teacher must know before trusting the merged files, on stderr.
void SayWhatIsMissing(const Reconciled& merged, const std::vector<std::string>& dirs) {
  for (const auto& d : merged.absent_folders)
    std::cerr << "merge: " << d << " does not exist (a shard that never ran?); its submissions are not graded\n";
  for (const auto& why : merged.unreadable) std::cerr << "merge: a result cannot be read, left out: " << why << "\n";
  if (!merged.planned)
    std::cerr << "merge: warning: no " << kPlanFile << " in " << dirs.front() << (dirs.size() > 1 ? " ..." : "")
              << " (results of an older judge): a submission whose shard did not run cannot be detected\n";
  if (merged.outside_plan)
    std::cerr << "merge: left out " << merged.outside_plan
              << " result(s) that the plan does not ask for (other inputs, or an earlier version of a file)\n";
  if (merged.not_graded.empty()) return;
  std::map<int, std::vector<std::string>> by_shard;
  for (const auto& m : merged.not_graded) by_shard[m.shard].push_back(m.name);
  const int count = merged.not_graded.front().shard_count;
  std::cerr << "merge: INCOMPLETE: " << merged.not_graded.size() << " of "
            << merged.entries.size() + merged.not_graded.size()
            << " submission(s) NOT GRADED (listed as \"not graded\" in every file, never as a verdict):\n";
  for (const auto& [shard, names] : by_shard) {
    std::cerr << "  shard " << shard << "/" << count << ":";
    for (const auto& n : names) std::cerr << " " << ForTerminal(n);
    std::cerr << "\n";
  }
  std::cerr << "merge: run `judge batch` again for " << (by_shard.size() > 1 ? "those shards" : "that shard")
            << " (same inputs, same --out: it grades only what is missing), then merge again; exit code "
            << kExitNotGraded << "\n";
}

Expected<int> MergeCommand(const Invocation& in) {
  auto merged = LoadForMerge(in.operands);
  if (!merged) return merged.error();
  const std::vector<BatchEntry>& entries = merged->entries;
  // The problem the shards graded, as their reports say (--problem overrides).
  std::string problem = in.shared.problem;
  if (problem.empty()) problem = entries.empty() ? kDefaultProblem : entries.front().report.problem;
  auto grading = GradingPolicyFor(in, problem);
  if (!grading) return grading.error();
  std::string out = in.options["out"].as<std::string>();
  JUDGE_TRY(WriteBatchFiles(entries, *grading, out, merged->not_graded));
  std::cerr << entries.size() << " submission(s) merged; leaderboard and reports in " << out << "\n";
  SayWhatIsMissing(*merged, in.operands);
  return Interrupted() ? int(ExitCode::kInterrupted) : MergeExitCode(*merged, in.options.count("strict") > 0);
}

// Without a name: every problem, its entry point, how it is checked and its cases by kind; with
// one: that problem's cases.
Expected<int> ListCommand(const Invocation& in) {
  const std::string problems = in.shared.root + "/problems";
  std::vector<std::string> names = in.operands.empty() ? ListProblems(problems) : in.operands;
  int broken = 0;
  for (const auto& name : names) {
    // One problem that does not load does not hide the others: it is named with its error.
    auto problem = LoadProblem(problems, name);
    auto cases = problem ? LoadTestcaseDir(in.shared.root + "/testcases/" + name, *problem)
                         : Expected<std::vector<Case>>(problem.error());
    if (!cases) {
      if (in.operands.size() == 1) return cases.error();
      std::cout << name << ": does not load: " << cases.error().message << "\n";
      ++broken;
      continue;
    }
    std::cout << name << ": " << problem->title << "\n  " << problem->Declaration()
              << "\n  check: " << problem->check.Describe() << "\n";
    if (in.operands.empty()) {
      std::map<std::string, int> kinds;
      for (const auto& c : *cases) kinds[std::string(CaseKindName(c.kind))]++;
      std::cout << "  cases:";
      for (const auto& [kind, n] : kinds) std::cout << " " << n << " " << kind;
      std::cout << "; samples: " << problem->samples_dir << "\n";
      continue;
    }
    for (const auto& c : *cases)
      std::cout << "  " << c.name << "  [" << CaseKindName(c.kind) << (c.kind == CaseKind::kStress ? ", opt-in" : "")
                << "] " << FormatScalars(c.scalars) << "\n";
  }
  return broken ? int(ExitCode::kUsage) : 0;
}

void AddCheckProblemOptions(cxxopts::Options& opts) {
  AddMeasureOptions(opts);
  opts.add_options()("cases",
                     "cases the samples are judged on (default: all; on the host double, the correctness ones)",
                     cxxopts::value<std::string>())("out", "also write the results as JSON to this file",
                                                    cxxopts::value<std::string>())(
      "markdown", "also write the samples' ladder (as `judge ladder --markdown`) to this file",
      cxxopts::value<std::string>())(
      "samples",
      "check only these samples (comma-separated names, e.g. 03_tile64,90_square_only): the author's loop "
      "while writing one; the result then says it is not a full check",
      cxxopts::value<std::string>())("q,quiet", "no progress on stderr");
  AddSideBySideOption(opts);
}

Expected<int> CheckProblemCommand(const Invocation& in) {
  auto files = OutputFiles(in.options, {"out", "markdown"}, {});
  if (!files) return files.error();
  auto o = ReadRunOptions(in, {});
  if (!o) return o.error();
  o->problem = in.operands[0];
  ShareAcrossRuns(*o);
  if (!in.options.count("quiet")) PrintStages(*o);
  std::cout << "check-problem " << o->problem << " (" << DeviceKindName(o->device) << ")\n";
  std::vector<std::string> only;
  if (in.options.count("samples")) {
    only = SplitCommas(in.options["samples"].as<std::string>());
    if (only.empty()) return MakeError(ErrorCode::kUsage, "--samples needs sample names, e.g. --samples 00_naive");
  }
  auto side_by_side = ReadSideBySide(in.options);
  if (!side_by_side) return side_by_side.error();
  auto report = CheckProblem(
      *o,
      [](const ProblemCheckLine& line) {
        std::cout << "  " << (line.ok ? "ok    " : "FAIL  ") << line.what << ": " << line.detail << std::endl;
      },
      only, *side_by_side);
  if (!report) return report.error();
  int failed = 0;
  Json lines = Json::array();
  for (const auto& line : report->lines) {
    failed += !line.ok;
    lines.push_back({{"what", line.what}, {"ok", line.ok}, {"detail", line.detail}});
  }
  std::cout << "result: " << (report->ok() ? "ok" : "FAILED") << ", " << report->lines.size() - size_t(failed) << " of "
            << report->lines.size() << " checks hold";
  if (!report->left_out.empty())
    std::cout << "; " << report->left_out.size() << " sample(s) left out by --samples (not a full check)";
  std::cout << "\n";
  for (const OutputFile& file : *files) {
    if (file.option == "markdown") {
      std::ostringstream ladder;
      WriteLadderMarkdown(report->samples, ladder);
      JUDGE_TRY(WriteOutput(file, ladder.str()));
      continue;
    }
    Json j = {{"schema", "gpu-judge.check-problem"},
              {"schema_version", 1},
              {"problem", report->problem},
              {"device", std::string(DeviceKindName(o->device))},
              {"ok", report->ok()},
              {"checks", lines},
              {"samples_left_out", report->left_out}};
    JUDGE_TRY(WriteOutput(file, j.dump(2) + "\n"));
  }
  if (Interrupted()) return int(ExitCode::kInterrupted);
  return report->ok() ? 0 : int(ExitCode::kRejected);
}

Expected<int> VersionCommand(const Invocation&) {
  std::cout << "judge " << kJudgeVersion << "\n";
  return 0;
}

// The worker talks to its judge on file descriptors 3 and 4 (judge/supervise/worker_process.h).
Expected<int> WorkerCommand(const Invocation&) { return RunWorker(3, 4); }

}  // namespace judge::cli

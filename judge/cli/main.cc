// SPDX-License-Identifier: MIT
// The `judge` command: run | build | list | version, and the hidden `__worker` the judge starts
// for itself (the only process that ever loads submission code).
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include <cxxopts.hpp>
#include <spdlog/spdlog.h>

#include "judge/batch/batch.h"
#include "judge/build/compile_cache.h"
#include "judge/run/compare.h"
#include "judge/run/ladder.h"
#include "judge/run/run_pipeline.h"
#include "judge/problem/problem.h"
#include "judge/report/reporter.h"
#include "judge/testcase/testcase.h"
#include "judge/util/fs.h"
#include "judge/worker/worker_main.h"

namespace {

using judge::ErrorCode;
using judge::ExitCode;

std::atomic<bool> g_interrupted{false};

void OnSignal(int) { g_interrupted = true; }

void InstallSignalHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a dead worker must not kill the judge through its pipe
}

const char* kUsage =
    "usage: judge <command> [options]\n"
    "\n"
    "commands:\n"
    "  run FILE       judge one submission (.cu, or a prebuilt .so) and print its report\n"
    "  build FILE     compile a submission and check its entry point, without running it\n"
    "  compare A B    time A and B alternately on a performance case; the ratio with a 95% interval\n"
    "  ladder [DIR]   grade every sample in DIR (default submissions/) and print the story table\n"
    "  batch IN...    grade many submissions (folders, files, globs) into a results folder, with a leaderboard\n"
    "  merge DIR...   build the batch files (leaderboard, reports) from the results folders of shards\n"
    "  list           list the problems and their testcases\n"
    "  version        print the judge's version\n"
    "\n"
    "`judge <command> --help` shows the command's options.\n";

int ExitFor(const judge::Error& e) {
  std::cerr << "error: " << e.message << "\n";
  switch (e.code) {
    case ErrorCode::kUsage:
    case ErrorCode::kBadInput: return int(ExitCode::kUsage);
    case ErrorCode::kNoDevice: return int(ExitCode::kNoDevice);
    default: return int(ExitCode::kInternalError);
  }
}

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

void AddCommonOptions(cxxopts::Options& opts) {
  opts.add_options()
      ("problem", "problem name (a folder of problems/)", cxxopts::value<std::string>()->default_value("reduction"))
      ("root", "folder holding problems/ and testcases/ (default: found from the current folder)", cxxopts::value<std::string>())
      ("device", "cuda, or host for the GPU-less test double (host submissions are .cc files)", cxxopts::value<std::string>()->default_value("cuda"))
      ("arch", "GPU target, e.g. sm_90 (default: the present GPU's)", cxxopts::value<std::string>())
      ("cache-dir", "compile cache folder (default: $JUDGE_CACHE_DIR or ~/.cache/gpu-judge)", cxxopts::value<std::string>())
      ("no-cache", "always recompile")
      ("v,verbose", "log what the judge does")
      ("h,help", "show this help");
}

// How to measure: the options run, ladder and compare share.
void AddMeasureOptions(cxxopts::Options& opts) {
  opts.add_options()
      ("hot", "also time performance cases without the L2 flush (reported separately, labelled hot)")
      ("flush", "how to evict the L2 before a cold call: read (clean lines, default) or write (a memset, as nvbench does)",
       cxxopts::value<std::string>()->default_value("read"))
      ("timing-processes", "time each performance case in K worker processes and pool the samples: each CUDA "
       "context has an offset of its own (+-1.5% at N = 4M on an H200), which one process cannot average out",
       cxxopts::value<int>()->default_value("1"));
}

judge::Status ApplyMeasureOptions(const cxxopts::ParseResult& args, judge::RunOptions& o) {
  o.hot = args.count("hot") > 0;
  o.flush_mode = args["flush"].as<std::string>();
  o.timing_processes = args["timing-processes"].as<int>();
  if (o.timing_processes < 1 || o.timing_processes > 64)
    return judge::MakeError(ErrorCode::kUsage, "--timing-processes must be 1 to 64, not " + std::to_string(o.timing_processes));
  if (o.flush_mode != "read" && o.flush_mode != "write")
    return judge::MakeError(ErrorCode::kUsage, "--flush must be read or write, not \"" + o.flush_mode + "\"");
  return judge::Status::Ok();
}

std::string RootOf(const cxxopts::ParseResult& args) {
  return args.count("root") ? args["root"].as<std::string>() : judge::LocateRoot(judge::ExecutablePath());
}

// --points FILE, else the problem's grading.json, else the built-in defaults.
judge::Expected<judge::GradingPolicy> GradingPolicyFor(const cxxopts::ParseResult& args) {
  if (args.count("points")) return judge::LoadGradingPolicy(args["points"].as<std::string>());
  std::string path = RootOf(args) + "/problems/" + args["problem"].as<std::string>() + "/grading.json";
  if (::access(path.c_str(), R_OK) == 0) return judge::LoadGradingPolicy(path);
  return judge::GradingPolicy{};
}

std::string CacheDir(const cxxopts::ParseResult& args) {
  if (args.count("no-cache")) return "";
  return args.count("cache-dir") ? args["cache-dir"].as<std::string>() : judge::CompileCache::DefaultDir();
}


}  // namespace

namespace {

judge::Expected<cxxopts::ParseResult> ParseArgs(cxxopts::Options& opts, int argc, char** argv) {
  try {
    return opts.parse(argc, argv);
  } catch (const std::exception& e) {
    return judge::MakeError(ErrorCode::kUsage, std::string(e.what()) + " (see `" + opts.program() + " --help`)");
  }
}

std::string Positional(const cxxopts::ParseResult& args, const std::string& key = "file") {
  if (!args.count(key)) return "";
  auto files = args[key].as<std::vector<std::string>>();
  return files.empty() ? "" : files.front();
}

void PrintProgress(size_t i, size_t n, const judge::CaseResult& r) {
  std::fprintf(stderr, "[%3zu/%zu] %-26s %-4s %s\n", i + 1, n, r.name.c_str(),
               std::string(judge::VerdictShort(r.verdict)).c_str(), judge::FormatMs(r.event.median).c_str());
}

int CmdRun(int argc, char** argv) {
  cxxopts::Options opts("judge run", "Judge one submission against the problem's testcases.");
  AddCommonOptions(opts);
  AddMeasureOptions(opts);
  opts.add_options()
      ("cases", "only cases whose name contains one of these (comma separated), or of these kinds, or all; `stress` cases run only when named", cxxopts::value<std::string>())
      ("testcases", "testcase folder (default: <root>/testcases/<problem>)", cxxopts::value<std::string>())
      ("format", "what to print on stdout: text, json, junit, gradescope, markdown, html, or several (text,json)", cxxopts::value<std::string>()->default_value("text"))
      ("out", "also write the JSON report to this file", cxxopts::value<std::string>())
      ("junit", "also write a JUnit XML report to this file", cxxopts::value<std::string>())
      ("gradescope", "also write Gradescope's results.json to this file", cxxopts::value<std::string>())
      ("markdown", "also write a Markdown summary to this file", cxxopts::value<std::string>())
      ("html", "also write a self-contained HTML report to this file", cxxopts::value<std::string>())
      ("points", "grading policy for --gradescope (default: problems/<problem>/grading.json; docs/GRADING.md)", cxxopts::value<std::string>())
      ("call-timeout", "seconds one solve() call may take (default: the problem's limit)", cxxopts::value<double>())
      ("memory-limit-mb", "host memory the worker may use (default: the problem's limit)", cxxopts::value<double>())
      ("sanitize", "also run the small cases under compute-sanitizer: memcheck,racecheck,initcheck,synccheck (or a subset)",
       cxxopts::value<std::string>()->implicit_value("memcheck,racecheck,initcheck,synccheck"))
      ("no-sandbox", "run the compiler and the worker without their sandboxes (debugging only; the report says so)")
      ("q,quiet", "no progress lines on stderr")
      ("file", "the submission", cxxopts::value<std::vector<std::string>>());
  opts.parse_positional({"file"});
  opts.positional_help("FILE");
  auto args = ParseArgs(opts, argc, argv);
  if (!args) return ExitFor(args.error());
  if (args->count("help")) { std::cout << opts.help() << "\n"; return 0; }
  std::string file = Positional(*args);
  if (file.empty()) return ExitFor(judge::MakeError(ErrorCode::kUsage, "judge run needs a submission file, e.g. `judge run submissions/06_warp_unroll.cu`"));

  judge::ReporterMultiplex reporters;
  judge::ReporterOptions options;
  auto grading = GradingPolicyFor(*args);
  if (!grading) return ExitFor(grading.error());
  options.grading = *grading;
  bool color = ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
  for (const auto& f : SplitCommas((*args)["format"].as<std::string>())) {
    options.color = color && f == "text";
    auto r = judge::MakeReporter(f, options);
    if (!r) return ExitFor(judge::MakeError(ErrorCode::kUsage, "unknown --format \"" + f + "\" (expected " + judge::kReportFormats + ")"));
    reporters.Add(std::move(r), &std::cout);
  }
  options.color = false;
  constexpr int kFileFormats = 5;
  std::ofstream files[kFileFormats];
  const char* file_formats[kFileFormats][2] = {{"out", "json"}, {"junit", "junit"}, {"gradescope", "gradescope"},
                                               {"markdown", "markdown"}, {"html", "html"}};
  for (int i = 0; i < kFileFormats; ++i) {
    if (!args->count(file_formats[i][0])) continue;
    std::string path = (*args)[file_formats[i][0]].as<std::string>();
    files[i].open(path);
    if (!files[i]) return ExitFor(judge::MakeError(ErrorCode::kUsage, std::string("cannot write --") + file_formats[i][0] + " " + path));
    reporters.Add(judge::MakeReporter(file_formats[i][1], options), &files[i]);
  }

  judge::RunOptions o;
  o.submission = file;
  o.problem = (*args)["problem"].as<std::string>();
  o.root = args->count("root") ? (*args)["root"].as<std::string>() : judge::LocateRoot(judge::ExecutablePath());
  if (args->count("testcases")) o.testcases_dir = (*args)["testcases"].as<std::string>();
  if (args->count("cases")) o.case_filters = SplitCommas((*args)["cases"].as<std::string>());
  auto device = judge::ParseDeviceKind((*args)["device"].as<std::string>());
  if (!device) return ExitFor(judge::MakeError(ErrorCode::kUsage, "--device must be cuda or host"));
  o.device = *device;
  if (args->count("arch")) o.arch = (*args)["arch"].as<std::string>();
  o.cache_dir = CacheDir(*args);
  o.sandbox = !args->count("no-sandbox");
  if (auto st = ApplyMeasureOptions(*args, o); !st) return ExitFor(st.error());
  if (args->count("sanitize")) o.sanitize_tools = SplitCommas((*args)["sanitize"].as<std::string>());
  if (args->count("memory-limit-mb")) o.memory_limit_mb = (*args)["memory-limit-mb"].as<double>();
  if (args->count("call-timeout")) o.call_timeout_seconds = (*args)["call-timeout"].as<double>();
  o.worker_program = judge::ExecutablePath();
  o.interrupted = &g_interrupted;
  o.run_secret = (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  if (!args->count("quiet")) {
    o.on_case_done = PrintProgress;
    o.on_stage = [](const std::string& s) { std::fprintf(stderr, "%s...\n", s.c_str()); };
  }
  auto report = judge::RunSubmission(o);
  if (!report) {
    if (report.error().code == ErrorCode::kNoDevice)
      return ExitFor(judge::MakeError(ErrorCode::kNoDevice,
          "no usable CUDA GPU: " + report.error().message +
          "\n`judge run` needs an NVIDIA GPU and its driver (in Docker: `docker run --gpus all ...`)."
          "\nTo try the judge without a GPU, judge a host submission with --device host (see README)."));
    return ExitFor(report.error());
  }
  if (g_interrupted) report->exit_code = ExitCode::kInterrupted;
  reporters.Write(*report);
  return int(report->exit_code);
}

int CmdBuild(int argc, char** argv) {
  cxxopts::Options opts("judge build", "Compile a submission and check that it exports the entry point.");
  AddCommonOptions(opts);
  opts.add_options()("file", "the submission", cxxopts::value<std::vector<std::string>>());
  opts.parse_positional({"file"});
  auto args = ParseArgs(opts, argc, argv);
  if (!args) return ExitFor(args.error());
  if (args->count("help")) { std::cout << opts.help() << "\n"; return 0; }
  std::string file = Positional(*args);
  if (file.empty()) return ExitFor(judge::MakeError(ErrorCode::kUsage, "judge build needs a source file"));
  std::string root = args->count("root") ? (*args)["root"].as<std::string>() : judge::LocateRoot(judge::ExecutablePath());
  auto problem = judge::LoadProblem(root + "/problems", (*args)["problem"].as<std::string>());
  if (!problem) return ExitFor(problem.error());
  std::string arch = args->count("arch") ? (*args)["arch"].as<std::string>() : "";
  auto device = judge::ParseDeviceKind((*args)["device"].as<std::string>());
  if (!device) return ExitFor(judge::MakeError(ErrorCode::kUsage, "--device must be cuda or host"));
  if (*device == judge::DeviceKind::kCuda && arch.empty()) return ExitFor(judge::MakeError(ErrorCode::kUsage, "judge build needs --arch (e.g. sm_90): it does not look at the GPU"));
  auto r = judge::BuildOnly(file, *device, arch, CacheDir(*args), problem->entry_point, problem->Declaration());
  if (!r) return ExitFor(r.error());
  std::cout << r->log;
  std::cout << "compile sandbox:";
  for (const auto& p : r->sandbox) std::cout << " " << p.name << (p.active ? "" : " (OFF: " + p.detail + ")");
  std::cout << "\n" << (r->ok ? "ok: " + r->library_path + (r->cache_hit ? " (cached)" : "") : "compile error: " + file) << "\n";
  return r->ok ? 0 : int(ExitCode::kRejected);
}

// The options `ladder` and `compare` share with `run`, for grading many runs in one command.
judge::RunOptions SharedRunOptions(const cxxopts::ParseResult& args) {
  judge::RunOptions o;
  o.root = args.count("root") ? args["root"].as<std::string>() : judge::LocateRoot(judge::ExecutablePath());
  o.problem = args["problem"].as<std::string>();
  o.device = judge::ParseDeviceKind(args["device"].as<std::string>()).value_or(judge::DeviceKind::kCuda);
  if (args.count("arch")) o.arch = args["arch"].as<std::string>();
  if (args.count("testcases")) o.testcases_dir = args["testcases"].as<std::string>();
  o.cache_dir = CacheDir(args);
  o.worker_program = judge::ExecutablePath();
  o.interrupted = &g_interrupted;
  o.run_secret = (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  o.memo = std::make_shared<judge::ExpectedMemo>();
  o.workers_ahead = std::make_shared<judge::WorkerAhead>();
  o.on_stage = [](const std::string& s) { std::fprintf(stderr, "%s...\n", s.c_str()); };
  return o;
}

int CmdLadder(int argc, char** argv) {
  cxxopts::Options opts("judge ladder", "Grade every submission in a folder and print the story table.");
  AddCommonOptions(opts);
  AddMeasureOptions(opts);
  opts.add_options()
      ("cases", "cases to run: names or kinds, or all (default: the performance cases)", cxxopts::value<std::string>()->default_value("performance"))
      ("testcases", "testcase folder (default: <root>/testcases/<problem>)", cxxopts::value<std::string>())
      ("markdown", "also write the table as Markdown to this file", cxxopts::value<std::string>())
      ("dir", "the folder", cxxopts::value<std::vector<std::string>>());
  opts.parse_positional({"dir"});
  auto args = ParseArgs(opts, argc, argv);
  if (!args) return ExitFor(args.error());
  if (args->count("help")) { std::cout << opts.help() << "\n"; return 0; }
  judge::RunOptions o = SharedRunOptions(*args);
  if (auto st = ApplyMeasureOptions(*args, o); !st) return ExitFor(st.error());
  o.case_filters = SplitCommas((*args)["cases"].as<std::string>());
  std::string dir = Positional(*args, "dir");
  if (dir.empty()) dir = o.root + "/submissions";
  auto files = judge::LadderFiles(dir, o.device);
  if (files.empty()) return ExitFor(judge::MakeError(ErrorCode::kUsage, "no submissions in " + dir));
  auto rungs = judge::ClimbLadder(o, files);
  if (!rungs) return ExitFor(rungs.error());
  judge::WriteLadderText(*rungs, std::cout);
  if (args->count("markdown")) {
    std::ofstream md((*args)["markdown"].as<std::string>());
    if (!md) return ExitFor(judge::MakeError(ErrorCode::kUsage, "cannot write --markdown " + (*args)["markdown"].as<std::string>()));
    judge::WriteLadderMarkdown(*rungs, md);
  }
  return g_interrupted ? int(ExitCode::kInterrupted) : 0;
}

// Exit codes of batch and merge: 0 when every submission was graded, whatever its verdict (the
// verdicts are in the results); 4 when the judge failed on one (IE); 3 without a GPU; 2 for bad
// input; with --strict, 1 when some submission was not accepted. A pod failure policy can thus
// tell "a student's kernel failed" (0 or 1) from "the infrastructure failed" (3, 4).
int BatchExitCode(const std::vector<judge::BatchEntry>& entries, bool strict) {
  if (g_interrupted) return int(ExitCode::kInterrupted);
  bool rejected = false;
  for (const auto& e : entries) {
    if (e.report.verdict == judge::Verdict::kInternalError) return int(ExitCode::kInternalError);
    rejected |= e.report.verdict != judge::Verdict::kAccepted;
  }
  return strict && rejected ? int(ExitCode::kRejected) : 0;
}

int CmdBatch(int argc, char** argv) {
  cxxopts::Options opts("judge batch", "Grade many submissions into a results folder: per-submission reports, a leaderboard, "
                                       "JUnit, Gradescope, Markdown and HTML.");
  AddCommonOptions(opts);
  AddMeasureOptions(opts);
  opts.add_options()
      ("o,out", "results folder", cxxopts::value<std::string>()->default_value("batch-results"))
      ("shard", "grade only shard I of N (I/N, 0-based); then `judge merge` the results folders", cxxopts::value<std::string>())
      ("force", "regrade submissions that already have a result with the same key")
      ("jobs", "parallel compiles (default: the CPU's threads)", cxxopts::value<int>()->default_value("0"))
      ("cases", "only these cases (names or kinds, comma separated, or all; `stress` cases run only when named)", cxxopts::value<std::string>())
      ("testcases", "testcase folder (default: <root>/testcases/<problem>)", cxxopts::value<std::string>())
      ("points", "grading policy (default: problems/<problem>/grading.json; docs/GRADING.md)", cxxopts::value<std::string>())
      ("call-timeout", "seconds one solve() call may take (default: the problem's limit)", cxxopts::value<double>())
      ("strict", "exit 1 when some submission is not accepted")
      ("q,quiet", "no progress lines on stderr")
      ("inputs", "folders, files or glob patterns", cxxopts::value<std::vector<std::string>>());
  opts.parse_positional({"inputs"});
  opts.positional_help("IN...");
  auto args = ParseArgs(opts, argc, argv);
  if (!args) return ExitFor(args.error());
  if (args->count("help")) { std::cout << opts.help() << "\n"; return 0; }
  judge::BatchOptions b;
  if (args->count("inputs")) b.inputs = (*args)["inputs"].as<std::vector<std::string>>();
  if (b.inputs.empty()) return ExitFor(judge::MakeError(ErrorCode::kUsage, "judge batch needs submissions: a folder, files or a glob, e.g. `judge batch students/`"));
  b.run = SharedRunOptions(*args);
  b.run.on_stage = nullptr;
  if (auto st = ApplyMeasureOptions(*args, b.run); !st) return ExitFor(st.error());
  if (args->count("cases")) b.run.case_filters = SplitCommas((*args)["cases"].as<std::string>());
  if (args->count("call-timeout")) b.run.call_timeout_seconds = (*args)["call-timeout"].as<double>();
  b.out_dir = (*args)["out"].as<std::string>();
  b.force = args->count("force") > 0;
  b.compile_jobs = (*args)["jobs"].as<int>();
  if (args->count("shard"))
    if (auto st = judge::ParseShard((*args)["shard"].as<std::string>(), &b.shard_index, &b.shard_count); !st) return ExitFor(st.error());
  auto grading = GradingPolicyFor(*args);
  if (!grading) return ExitFor(grading.error());
  b.grading = *grading;
  if (!args->count("quiet")) b.on_progress = [](const judge::BatchProgress& p) { std::fprintf(stderr, "%s\n", p.line.c_str()); };
  auto entries = judge::RunBatch(b);
  if (!entries) {
    if (entries.error().code == ErrorCode::kNoDevice)
      return ExitFor(judge::MakeError(ErrorCode::kNoDevice, "no usable CUDA GPU: " + entries.error().message +
                                                                  "\n(in Docker: `docker run --gpus all ...`; without a GPU: --device host)"));
    return ExitFor(entries.error());
  }
  if (b.shard_count > 1)
    std::cerr << "shard " << b.shard_index << "/" << b.shard_count << ": " << entries->size() << " submission(s) in " << b.out_dir
              << "/submissions; when every shard is done: judge merge <their results folders> --out <folder>\n";
  else
    std::cerr << entries->size() << " submission(s); leaderboard and reports in " << b.out_dir
              << " (report.html, leaderboard.md, junit.xml, batch.json, scores.csv)\n";
  return BatchExitCode(*entries, args->count("strict") > 0);
}

int CmdMerge(int argc, char** argv) {
  cxxopts::Options opts("judge merge", "Build the batch files from the results folders of `judge batch --shard`.");
  opts.add_options()
      ("o,out", "where to write the batch files", cxxopts::value<std::string>()->default_value("batch-results"))
      ("points", "grading policy (default: the built-in one; docs/GRADING.md)", cxxopts::value<std::string>())
      ("problem", "problem name, for its grading.json", cxxopts::value<std::string>()->default_value("reduction"))
      ("root", "folder holding problems/", cxxopts::value<std::string>())
      ("strict", "exit 1 when some submission is not accepted")
      ("h,help", "show this help")
      ("dirs", "results folders", cxxopts::value<std::vector<std::string>>());
  opts.parse_positional({"dirs"});
  auto args = ParseArgs(opts, argc, argv);
  if (!args) return ExitFor(args.error());
  if (args->count("help")) { std::cout << opts.help() << "\n"; return 0; }
  auto dirs = args->count("dirs") ? (*args)["dirs"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (dirs.empty()) return ExitFor(judge::MakeError(ErrorCode::kUsage, "judge merge needs the results folders of the shards"));
  auto grading = GradingPolicyFor(*args);
  if (!grading) return ExitFor(grading.error());
  auto entries = judge::LoadEntries(dirs);
  if (!entries) return ExitFor(entries.error());
  std::string out = (*args)["out"].as<std::string>();
  if (auto st = judge::WriteBatchFiles(*entries, *grading, out); !st) return ExitFor(st.error());
  std::cerr << entries->size() << " submission(s) merged; leaderboard and reports in " << out << "\n";
  return BatchExitCode(*entries, args->count("strict") > 0);
}

int CmdCompare(int argc, char** argv) {
  cxxopts::Options opts("judge compare", "Time two submissions alternately and estimate the ratio of their times.");
  AddCommonOptions(opts);
  AddMeasureOptions(opts);
  opts.add_options()
      ("case", "the performance case (default: the first one)", cxxopts::value<std::string>()->default_value(""))
      ("rounds", "alternating rounds", cxxopts::value<int>()->default_value("6"))
      ("testcases", "testcase folder (default: <root>/testcases/<problem>)", cxxopts::value<std::string>())
      ("files", "A and B", cxxopts::value<std::vector<std::string>>());
  opts.parse_positional({"files"});
  auto args = ParseArgs(opts, argc, argv);
  if (!args) return ExitFor(args.error());
  if (args->count("help")) { std::cout << opts.help() << "\n"; return 0; }
  auto files = args->count("files") ? (*args)["files"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (files.size() != 2) return ExitFor(judge::MakeError(ErrorCode::kUsage, "judge compare takes two submissions, A and B"));
  int rounds = (*args)["rounds"].as<int>();
  if (rounds < 2) return ExitFor(judge::MakeError(ErrorCode::kUsage, "--rounds must be at least 2 for an interval"));
  judge::RunOptions o = SharedRunOptions(*args);
  if (auto st = ApplyMeasureOptions(*args, o); !st) return ExitFor(st.error());
  auto cmp = judge::CompareSubmissions(o, files[0], files[1], (*args)["case"].as<std::string>(), rounds);
  if (!cmp) return ExitFor(cmp.error());
  std::cout << "case " << cmp->case_name << ", " << cmp->estimate.rounds << " alternating rounds (median of each run, ms):\n";
  for (size_t i = 0; i < cmp->a_ms.size(); ++i)
    std::cout << "  round " << i + 1 << ": A " << judge::FormatMs(cmp->a_ms[i]) << "  B " << judge::FormatMs(cmp->b_ms[i]) << "\n";
  std::cout << cmp->estimate.Describe(judge::StemOf(files[0]), judge::StemOf(files[1])) << "\n";
  return 0;
}

int CmdList(int argc, char** argv) {
  cxxopts::Options opts("judge list", "List problems and testcases.");
  AddCommonOptions(opts);
  auto args = ParseArgs(opts, argc, argv);
  if (!args) return ExitFor(args.error());
  if (args->count("help")) { std::cout << opts.help() << "\n"; return 0; }
  std::string root = args->count("root") ? (*args)["root"].as<std::string>() : judge::LocateRoot(judge::ExecutablePath());
  for (const auto& name : judge::ListProblems(root + "/problems")) {
    auto problem = judge::LoadProblem(root + "/problems", name);
    if (!problem) return ExitFor(problem.error());
    std::cout << name << ": " << problem->title << "\n  " << problem->Declaration() << "\n";
    auto cases = judge::LoadTestcaseDir(root + "/testcases/" + name, *problem);
    if (!cases) return ExitFor(cases.error());
    for (const auto& c : *cases)
      std::cout << "  " << c.name << "  [" << judge::CaseKindName(c.kind) << (c.kind == judge::CaseKind::kStress ? ", opt-in" : "")
                << "] " << judge::FormatScalars(c.scalars) << "\n";
  }
  return 0;
}

}  // namespace

int Dispatch(int argc, char** argv);

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "__worker") return judge::RunWorker(3, 4);
  try {
    return Dispatch(argc, argv);
  } catch (const std::exception& e) {
    // Never reported as the submission's fault.
    std::cerr << "internal error (a judge bug, not the submission's fault): " << e.what() << "\n";
    return int(ExitCode::kInternalError);
  }
}

int Dispatch(int argc, char** argv) {
  InstallSignalHandlers();
  spdlog::set_level(spdlog::level::warn);
  if (argc < 2) { std::cerr << kUsage; return int(ExitCode::kUsage); }
  std::string cmd = argv[1];
  for (int i = 2; i < argc; ++i)
    if (std::string(argv[i]) == "-v" || std::string(argv[i]) == "--verbose") spdlog::set_level(spdlog::level::debug);
  if (cmd == "run") return CmdRun(argc - 1, argv + 1);
  if (cmd == "build") return CmdBuild(argc - 1, argv + 1);
  if (cmd == "list") return CmdList(argc - 1, argv + 1);
  if (cmd == "ladder") return CmdLadder(argc - 1, argv + 1);
  if (cmd == "compare") return CmdCompare(argc - 1, argv + 1);
  if (cmd == "batch") return CmdBatch(argc - 1, argv + 1);
  if (cmd == "merge") return CmdMerge(argc - 1, argv + 1);
  if (cmd == "version" || cmd == "--version") { std::cout << "judge " << judge::kJudgeVersion << "\n"; return 0; }
  if (cmd == "help" || cmd == "--help" || cmd == "-h") { std::cout << kUsage; return 0; }
  std::cerr << "error: unknown command \"" << cmd << "\"\n" << kUsage;
  return int(ExitCode::kUsage);
}

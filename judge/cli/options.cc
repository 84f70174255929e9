// SPDX-License-Identifier: MIT
#include "judge/cli/options.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <sstream>

#include "judge/problem/problem.h"
#include "judge/problem/sample_header.h"
#include "judge/run/case_runner.h"
#include "judge/util/fs.h"
#include "judge/util/range.h"

namespace judge::cli {
namespace {

template <typename T>
void ReadIfGiven(const cxxopts::ParseResult& args, const std::string& name, T& into) {
  if (args.count(name)) into = args[name].as<T>();
}

// The option's value when given, checked against the range problem.json's limit has too.
Status ReadLimit(const cxxopts::ParseResult& args, const std::string& name, const LimitRange& range, double& into) {
  if (!args.count(name)) return Status::Ok();
  JUDGE_TRY(CheckRange(name, args[name].as<double>(), range.min, range.max, range.unit));
  into = args[name].as<double>();
  return Status::Ok();
}

Status ReadMeasureOptions(const cxxopts::ParseResult& args, RunOptions& o) {
  o.hot = args.count("hot") > 0;
  o.flush_mode = args["flush"].as<std::string>();
  o.timing_processes = args["timing-processes"].as<int>();
  JUDGE_TRY(CheckRange("timing-processes", o.timing_processes, 1, 64));
  if (o.flush_mode != "read" && o.flush_mode != "write")
    return MakeError(ErrorCode::kUsage, "--flush must be read or write, not \"" + o.flush_mode + "\"");
  return Status::Ok();
}

}  // namespace

void AddMeasureOptions(cxxopts::Options& opts) {
  opts.add_options()("testcases", "testcase folder (default: <root>/testcases/<problem>)",
                     cxxopts::value<std::string>())(
      "hot", "also time performance cases without the L2 flush (reported separately, labelled hot)")(
      "flush",
      "how to evict the L2 before a cold call: read (clean lines, default) or write (a memset, as nvbench does)",
      cxxopts::value<std::string>()->default_value("read"))(
      "timing-processes",
      "time each performance case in K worker processes and pool the samples: each CUDA "
      "context has an offset of its own (+-1.5% at N = 4M on an H200), which one process cannot average out",
      cxxopts::value<int>()->default_value("1"));
}

void AddJudgingOptions(cxxopts::Options& opts) {
  opts.add_options()("cases",
                     "only cases whose name contains one of these (comma separated), or of these kinds, or all; "
                     "`stress` cases run only when named",
                     cxxopts::value<std::string>())("call-timeout",
                                                    "seconds one solve() call may take (default: the problem's limit)",
                                                    cxxopts::value<double>())("q,quiet", "no progress lines on stderr");
  AddPointsOption(opts);
}

void AddPointsOption(cxxopts::Options& opts) {
  opts.add_options()("points", "grading policy (default: problems/<problem>/grading.json; docs/GRADING.md)",
                     cxxopts::value<std::string>());
}

void AddStrictOption(cxxopts::Options& opts) {
  opts.add_options()("strict", "exit 1 when some submission is not accepted");
}

// The default is 0 (as many as the machine holds): on the H200 four prefix_sum samples at a time
// took 77 s against 109 s one at a time, with the same verdicts and medians within 2%
// (docs/results/h200-2026-12-04-judge-time.md).
void AddSideBySideOption(cxxopts::Options& opts) {
  opts.add_options()("side-by-side",
                     "submissions judged at a time; their timed cases still take the GPU one at a time, so the "
                     "times are a lone run's (0: as many as the CPUs, host and GPU memory hold, at most 4)",
                     cxxopts::value<int>()->default_value("0"));
}

Expected<int> ReadSideBySide(const cxxopts::ParseResult& args) {
  const int n = args["side-by-side"].as<int>();
  JUDGE_TRY(CheckRange("side-by-side", n, 0, 64));
  return n;
}

std::string ProblemFor(const Invocation& in, const std::vector<std::string>& sources) {
  if (!in.shared.problem.empty()) return in.shared.problem;
  // A header names a problem of this catalog or none: LoadProblem refuses anything else.
  namespace fs = std::filesystem;
  auto named = [](const std::string& file) {
    auto header = ReadSampleHeader(file);
    return header ? header->problem : std::string();
  };
  for (const auto& source : sources) {
    std::error_code ec;
    if (!fs::is_directory(source, ec)) {
      if (std::string p = named(source); !p.empty()) return p;
      continue;
    }
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(source, ec))
      if (e.is_regular_file(ec)) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
      if (std::string p = named(f); !p.empty()) return p;
  }
  return kDefaultProblem;
}

Expected<RunOptions> ReadRunOptions(const Invocation& in, const std::vector<std::string>& sources) {
  const cxxopts::ParseResult& args = in.options;
  RunOptions o;
  o.root = in.shared.root;
  o.problem = ProblemFor(in, sources);
  o.device = in.shared.device;
  o.arch = in.shared.arch;
  o.cache_dir = in.shared.cache_dir;
  JUDGE_TRY(ReadMeasureOptions(args, o));
  ReadIfGiven(args, "testcases", o.testcases_dir);
  if (args.count("cases")) o.case_filters = SplitCommas(args["cases"].as<std::string>());
  JUDGE_TRY(ReadLimit(args, "call-timeout", kSecondsRange, o.call_timeout_seconds));
  JUDGE_TRY(ReadLimit(args, "memory-limit-mb", kHostMemoryMbRange, o.memory_limit_mb));
  if (args.count("sanitize")) o.sanitize_tools = SplitCommas(args["sanitize"].as<std::string>());
  o.profile = args.count("profile") > 0;
  o.sandbox = !args.count("no-sandbox");
  o.worker_program = ExecutablePath();
  o.interrupted = &Interrupted();
  o.run_secret = (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  return o;
}

void ShareAcrossRuns(RunOptions& o) {
  o.memo = std::make_shared<ExpectedMemo>(ExpectedMemoBudget(HostMemoryAvailableBytes()));
  o.workers_ahead = std::make_shared<WorkerAhead>();
  o.clock_calibrations = std::make_shared<ClockCalibrations>();
}

void PrintStages(RunOptions& o) {
  o.on_stage = [](const std::string& s) { std::fprintf(stderr, "%s...\n", s.c_str()); };
}

Expected<GradingPolicy> GradingPolicyFor(const Invocation& in, const std::string& problem) {
  if (in.options.count("points")) return LoadGradingPolicy(in.options["points"].as<std::string>());
  std::string path = in.shared.root + "/problems/" + problem + "/grading.json";
  if (::access(path.c_str(), R_OK) == 0) return LoadGradingPolicy(path);
  return GradingPolicy{};
}

Expected<std::vector<OutputFile>> OutputFiles(const cxxopts::ParseResult& args, const std::vector<std::string>& options,
                                              const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::vector<OutputFile> files;
  for (const std::string& option : options) {
    if (!args.count(option)) continue;
    OutputFile file{option, args[option].as<std::string>()};
    const std::string named = "--" + option + " " + file.path;
    auto usage = [&](const std::string& why) { return MakeError(ErrorCode::kUsage, why); };
    std::error_code ec;
    if (file.path.empty()) return usage("--" + option + " needs a file name");
    if (fs::is_directory(file.path, ec)) return usage(named + " is a folder: give the file to write");
    for (const auto& input : inputs)
      if (fs::equivalent(file.path, input, ec))
        return usage(named + " is " + input +
                     ", a submission being graded: the report would overwrite it; give the report a file of its own");
    for (const auto& other : files)
      if (other.path == file.path || fs::equivalent(other.path, file.path, ec))
        return usage("--" + other.option + " and --" + option + " both name " + file.path +
                     ": give each report a file of its own");
    fs::path folder = fs::path(file.path).parent_path();
    if (folder.empty()) folder = ".";
    if (fs::is_directory(folder, ec) && ::access(folder.c_str(), W_OK) != 0)
      return usage("cannot write " + named + ": " + std::strerror(errno));
    files.push_back(std::move(file));
  }
  return files;
}

Status WriteOutput(const OutputFile& file, const std::string& text) {
  if (auto st = WriteFileAtomic(file.path, text); !st)
    return MakeError(st.error().code, "--" + file.option + ": " + st.error().message);
  return Status::Ok();
}

Status CheckRange(const std::string& option, double value, double lo, double hi, const std::string& unit) {
  std::string why = OutsideRange(value, lo, hi, unit);
  if (why.empty()) return Status::Ok();
  return MakeError(ErrorCode::kUsage, "--" + option + " " + why);
}

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace judge::cli

// SPDX-License-Identifier: MIT
#include "judge/run/run_pipeline.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <functional>
#include <optional>

#include <spdlog/spdlog.h>

#include "judge/build/compile_cache.h"
#include "judge/build/compiler.h"
#include "judge/build/elf_symbols.h"
#include "judge/check/case_preparation.h"
#include "judge/check/reference.h"
#include "judge/measure/ceiling_cache.h"
#include "judge/problem/problem.h"
#include "judge/rules/run_verdict.h"
#include "judge/run/case_prefetcher.h"
#include "judge/run/case_runner.h"
#include "judge/run/hidden_size.h"
#include "judge/run/profile_run.h"
#include "judge/run/sanitize.h"
#include "judge/testcase/testcase.h"
#include "judge/util/fs.h"
#include "judge/util/parallel.h"
#include "judge/util/sha256.h"
#include "judge/util/utf8.h"

#ifndef JUDGE_DATA_DIR
#define JUDGE_DATA_DIR "/usr/local/share/gpu-judge"
#endif

namespace judge {
namespace fs = std::filesystem;

namespace {

bool IsRoot(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p / "problems", ec) && fs::is_directory(p / "testcases", ec);
}

std::string UtcNow() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// The problem's libraries are linked into CUDA submissions (a cuBLAS yardstick); the host double's
// solve() is plain C++.
std::unique_ptr<Compiler> CompilerFor(DeviceKind device, const Problem& problem) {
  if (device == DeviceKind::kHost) return std::make_unique<HostCompiler>();
  std::vector<std::string> flags;
  for (const auto& library : problem.libraries) flags.push_back("-l" + library);
  return std::make_unique<NvccCompiler>("", flags);
}

std::string TargetFor(DeviceKind device, const std::string& arch, const DeviceInfo* info) {
  if (device == DeviceKind::kHost) return "host";
  if (!arch.empty()) return arch;
  return info ? ArchForComputeCapability(info->cc_major, info->cc_minor) : "sm_90";
}

// judge/build keeps a source's path in its cache's JSON, which holds UTF-8 only: a source whose
// path is not UTF-8 (a student's Latin-1 file name) is compiled through a link whose path is, and
// the log gets the source's own path back.
class SourceForBuild {
 public:
  explicit SourceForBuild(const std::string& source) : source_(source), path_(source) {
    if (IsValidUtf8(source)) return;
    auto dir = MakeTempDir(fs::temp_directory_path().string(), "judge-source-");
    if (!dir) return;  // then its own path: the build says what went wrong
    dir_ = *dir;
    std::string link = dir_ + "/submission" + ExtensionOf(source);
    std::error_code ec;
    fs::create_symlink(fs::absolute(source, ec), link, ec);
    if (!ec) path_ = link;
  }
  ~SourceForBuild() {
    if (!dir_.empty()) RemoveTree(dir_);
  }
  SourceForBuild(const SourceForBuild&) = delete;
  SourceForBuild& operator=(const SourceForBuild&) = delete;
  const std::string& path() const { return path_; }
  std::string Log(std::string log) const {
    if (path_ == source_) return log;
    for (size_t at = log.find(path_); at != std::string::npos; at = log.find(path_, at + source_.size()))
      log.replace(at, path_.size(), source_);
    return log;
  }

 private:
  std::string source_, path_, dir_;
};

// Builds (or fetches) the library and checks its entry point; fills report.build.
Status Build(const RunOptions& o, const Problem& problem, RunReport& report) {
  BuildInfo& b = report.build;
  b.attempted = true;
  if (ExtensionOf(o.submission) == ".so") {
    b.prebuilt = true;
    b.ok = true;
    b.library_path = fs::absolute(o.submission).string();
  } else {
    if (o.on_stage) o.on_stage("compiling");
    auto compiler = CompilerFor(o.device, problem);
    b.target = TargetFor(o.device, o.arch, report.device ? &*report.device : nullptr);
    CompileCache cache(o.cache_dir, CompileSandboxPolicy{o.sandbox});
    SourceForBuild source(o.submission);
    auto built = cache.Build(*compiler, source.path(), b.target, problem.limits.compile_seconds);
    if (!built) return built.error();
    b.sandbox = built->sandbox;
    for (const auto& p : b.sandbox)
      if (!p.active) report.warnings.push_back("compile sandbox layer inactive: " + p.name + " (" + p.detail + ")");
    if (auto* nvcc = dynamic_cast<NvccCompiler*>(compiler.get()))
      b.compiler = "nvcc " + nvcc->ReleaseVersion();
    else
      b.compiler = compiler->Name();
    b.ok = built->ok;
    b.cache_hit = built->cache_hit;
    b.flags = built->flags;
    b.seconds = built->seconds;
    b.compile_seconds = built->compile_seconds;
    b.log = source.Log(built->log);
    b.library_path = built->library_path;
    b.cache_key = built->key;
    if (!b.ok) {
      report.message =
          built->timed_out ? "compilation timed out" : "the submission does not compile (see the diagnostics above)";
      return Status::Ok();
    }
  }
  auto symbols = ReadExportedFunctions(b.library_path);
  if (!symbols) {
    b.ok = false;
    b.log += symbols.error().message + "\n";
    return Status::Ok();
  }
  EntryPointCheck entry = CheckEntryPoint(*symbols, problem.entry_point, problem.Declaration());
  if (!entry.found) {
    b.ok = false;
    b.log += "error: " + entry.message + "\n";
    report.message = "missing entry point: " + entry.message;
  }
  return Status::Ok();
}

void FailAll(RunReport& report, const std::vector<Case>& cases, Verdict v, const std::string& detail) {
  for (const auto& c : cases) {
    CaseResult r;
    r.name = c.name;
    r.kind = c.kind;
    r.scalars = c.scalars;
    r.note = c.note;
    r.verdict = v;
    r.detail = detail;
    report.cases.push_back(r);
  }
}

// The device, and its measured read ceiling: from the cache, or measured once by a throw-away
// worker. A failed measurement costs only the "% of ceiling" figures, never the run.
Expected<std::shared_ptr<const DeviceFacts>> Probe(const RunOptions& o) {
  auto info = ProbeDevice(o.worker_program, o.device, o.interrupted);
  if (!info) return info.error();
  auto facts = std::make_shared<DeviceFacts>();
  facts->info = *info;
  if (auto cached = LoadCeilings(o.cache_dir, *info)) {
    facts->ceilings = *cached;
    facts->ceiling_source = "cached";
    return std::shared_ptr<const DeviceFacts>(facts);
  }
  auto measured = MeasureCeiling(o.worker_program, o.device, o.interrupted);
  if (!measured || !(measured->read_gbps > 0) || !(measured->copy_gbps > 0) || !(measured->fp32_gflops > 0)) {
    facts->ceiling_source = "not measured: " + (measured ? std::string("no result") : measured.error().message);
    facts->warning = "the device's ceilings could not be measured (" + facts->ceiling_source + ")";
    return std::shared_ptr<const DeviceFacts>(facts);
  }
  facts->ceilings = *measured;
  facts->ceiling_source = "measured: " + measured->shape;
  (void)StoreCeilings(o.cache_dir, *info, *measured);
  return std::shared_ptr<const DeviceFacts>(facts);
}

Status ValidateSubmissionPath(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    return MakeError(ErrorCode::kUsage,
                     "submission not found: " + path +
                         " (give the path of a .cu file, e.g. submissions/06_warp_unroll.cu, or a prebuilt .so)");
  if (fs::is_directory(path, ec))
    return MakeError(ErrorCode::kUsage, path + " is a directory; `judge run` takes one submission file");
  std::string ext = ExtensionOf(path);
  if (ext != ".cu" && ext != ".so" && ext != ".cc" && ext != ".cpp")
    return MakeError(ErrorCode::kUsage,
                     path + ": expected a .cu source (or .cc/.cpp for --device host, or a prebuilt .so)");
  return Status::Ok();
}

// Judges every case; keeps the small prepared cases for the sanitizer pass.
// Whether `c` is the case --profile asks for (its prepared inputs are kept for the profiled call).
bool WantsProfile(const RunOptions& o, const Case& c, const std::optional<PreparedCase>& kept) {
  if (!o.profile || kept) return false;
  return o.profile_case.empty() ? c.IsPerformance() && !OfficialNameOfTwin(c.name) : c.name == o.profile_case;
}

void RunCases(const RunOptions& o, const Problem& problem, const std::vector<Case>& cases, CaseRunner& runner,
              const Reference& reference, RunReport& report, std::vector<PreparedCase>* small,
              std::optional<PreparedCase>* to_profile) {
  auto start = std::chrono::steady_clock::now();
  CasePrefetcher prefetch([&](size_t i) {
    return PrepareCase(problem, cases[i], reference, o.run_secret, problem.input_variants, o.memo.get());
  });
  auto skipped = [&](size_t i) { return TwinNotNeeded(cases[i], report.cases, problem.performance_timing); };
  for (size_t i = 0; i < cases.size(); ++i) {
    RunSoFar so_far;
    for (const auto& c : report.cases) so_far.verdicts.push_back(c.verdict);
    so_far.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    so_far.interrupted = o.interrupted && o.interrupted->load();
    if (auto stop = StopBeforeNextCase(so_far, problem.limits)) {
      FailAll(report, {cases.begin() + long(i), cases.end()}, stop->verdict, stop->detail);
      if (stop->verdict == Verdict::kNotRun) report.message = "interrupted: the remaining cases were not run";
      return;
    }
    if (auto skip = skipped(i)) {
      NoteSkippedTwin(*skip, &report.cases);
      continue;
    }
    CaseResult result;
    auto prepare_start = std::chrono::steady_clock::now();
    auto prepared = prefetch.Take(i, o.gpu_turns.get());
    double prepare_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - prepare_start).count();
    for (size_t next = i + 1, started = 0; next < cases.size() && started < kPrepareAhead; ++next)
      if (!skipped(next)) {
        prefetch.Start(next);
        ++started;
      }
    if (!prepared) {
      FailAll(report, {cases[i]}, Verdict::kInternalError, "the reference failed: " + prepared.error().message);
      result = report.cases.back();
    } else {
      std::vector<Verdict> verdicts;
      for (const auto& c : report.cases) verdicts.push_back(c.verdict);
      const auto rejected = cases[i].IsPerformance() ? FirstRejection(verdicts) : std::nullopt;
      result = runner.RunCase(*prepared, rejected.has_value());
      if (rejected) result.flags.push_back(CheckedOnlyFlag(report.cases[*rejected].name, verdicts[*rejected]));
      result.prepare_seconds = prepare_seconds;
      result.seconds += prepare_seconds;
      report.cases.push_back(result);
      spdlog::debug("case {} {}: {:.3f} s, {:.3f} s of it waiting for its inputs and expected outputs", result.name,
                    VerdictShort(result.verdict), result.seconds, prepare_seconds);
      if (WantsProfile(o, cases[i], *to_profile)) *to_profile = *prepared;
      if (!o.sanitize_tools.empty() && result.min_bytes <= (1 << 20)) small->push_back(std::move(*prepared));
    }
    if (o.on_case_done) o.on_case_done(i, cases.size(), result);
  }
}

}  // namespace

Expected<std::shared_ptr<const DeviceFacts>> ProbeDeviceFacts(const RunOptions& o) { return Probe(o); }

std::string CompileTarget(const RunOptions& o, const DeviceFacts* facts) {
  return TargetFor(o.device, o.arch, facts ? &facts->info : nullptr);
}

std::string LocateRoot(const std::string& executable) {
  if (const char* env = std::getenv("JUDGE_ROOT"); env && *env) return env;
  std::error_code ec;
  for (fs::path start : {fs::current_path(ec), fs::path(executable).parent_path()}) {
    for (fs::path p = fs::absolute(start, ec); !p.empty(); p = p.parent_path()) {
      if (IsRoot(p)) return p.string();
      if (p == p.parent_path()) break;
    }
  }
  return JUDGE_DATA_DIR;
}

namespace {

Expected<Problem> LoadRunProblem(const RunOptions& o) {
  auto problem = LoadProblem((fs::path(o.root) / "problems").string(), o.problem);
  if (!problem) return problem.error();
  if (o.call_timeout_seconds > 0) problem->limits.call_seconds = o.call_timeout_seconds;
  if (o.memory_limit_mb > 0) problem->limits.host_memory_mb = o.memory_limit_mb;
  return problem;
}

}  // namespace

std::vector<Case> CasesOfRun(const RunOptions& o, const Problem& problem, std::vector<Case> all) {
  std::vector<Case> cases = SelectCases(std::move(all), o.case_filters);
  if (o.max_case_bytes > 0)
    std::erase_if(cases, [&](const Case& c) {
      auto bytes = problem.MinimumBytes(c.scalars);
      return !bytes || *bytes > o.max_case_bytes;
    });
  return cases;
}

namespace {

// The selected cases, and a twin at a secret size for each performance case.
Expected<std::vector<Case>> LoadRunCases(const RunOptions& o, const Problem& problem) {
  std::string dir = o.testcases_dir.empty() ? (fs::path(o.root) / "testcases" / o.problem).string() : o.testcases_dir;
  auto all_cases = LoadTestcaseDir(dir, problem);
  if (!all_cases) return all_cases.error();
  std::vector<Case> cases = CasesOfRun(o, problem, std::move(*all_cases));
  if (cases.empty()) return MakeError(ErrorCode::kUsage, "no testcase matches --cases (see `judge list`)");
  AddHiddenSizeCases(problem, o.run_secret, &cases);
  return cases;
}

}  // namespace

void WarmExpectedMemo(const RunOptions& o, unsigned workers, const std::atomic<bool>& stop) {
  if (!o.memo) return;
  auto problem = LoadRunProblem(o);
  if (!problem) return;
  auto cases = LoadRunCases(o, *problem);
  if (!cases) return;
  CompileCache ref_cache(o.cache_dir);
  auto reference = Reference::Load(*problem, ref_cache);
  if (!reference) return;
  auto start = std::chrono::steady_clock::now();
  ParallelFor(cases->size(), workers, [&](size_t i) {
    if (stop.load() || (o.interrupted && o.interrupted->load())) return;
    // At the prefetcher's priority, for its reason: a runner timing a call must wake at once.
    LowerThreadPriority(kBesideTimingNice);
    (void)PrepareCase(*problem, (*cases)[i], *reference, o.run_secret, problem->input_variants, o.memo.get());
  });
  spdlog::debug("expected outputs of {} cases prepared ahead in {:.3f} s ({} in the memo)", cases->size(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), o.memo->size());
}

namespace {

Status AttachDevice(const RunOptions& o, RunReport& report) {
  std::shared_ptr<const DeviceFacts> facts = o.known_device;
  if (!facts) {
    auto probed = Probe(o);
    if (!probed) return probed.error();
    facts = *probed;
  }
  report.device = facts->info;
  report.ceiling_gbps = facts->ceilings.read_gbps;
  report.copy_gbps = facts->ceilings.copy_gbps;
  report.fp32_gflops = facts->ceilings.fp32_gflops;
  report.ceiling_source = facts->ceiling_source;
  if (!facts->warning.empty()) report.warnings.push_back(facts->warning);
  return Status::Ok();
}

CaseRunnerConfig RunnerConfig(const RunOptions& o, const RunReport& report) {
  CaseRunnerConfig config;
  config.worker_program = o.worker_program;
  config.device_kind = o.device;
  config.interrupted = o.interrupted;
  config.visible_device = o.gpu;
  config.library_path = report.build.library_path;
  const bool cuda = o.device == DeviceKind::kCuda;
  // Implausible: 5% above the read ceiling measured on this GPU (the best a streaming kernel did;
  // honest samples reach ~95% of it), else 2% above the attribute peak. The host double's
  // "bandwidth" is one CPU core's: nothing to flag there.
  if (cuda && report.ceiling_gbps > 0) {
    config.plausible_gbps = report.ceiling_gbps * 1.05;
    config.plausible_basis = "5% above the measured read ceiling";
  } else if (cuda && report.device) {
    config.plausible_gbps = report.device->peak_bandwidth_gbps * 1.02;
    config.plausible_basis = "2% above the peak from device attributes";
  }
  // The host double's ceilings are one core's: its percentages say little, but the figures run.
  config.ceilings = Ceilings{report.ceiling_gbps, report.copy_gbps, report.fp32_gflops, ""};
  config.sandbox = o.sandbox;
  config.hot = o.hot;
  // CUDA events cost ~1.3 us, a steady measurable share of a 9 us kernel; the host double's clock
  // costs tens of nanoseconds, under its own jitter, where subtracting adds only noise.
  config.window_correction_ms = cuda && report.device ? report.device->empty_window_ms : 0;
  config.flush = o.flush_mode == "write" ? FlushMode::kWrite : FlushMode::kRead;
  config.timing_processes = o.timing_processes;
  config.ahead = o.workers_ahead;
  config.turns = o.gpu_turns;
  config.calibrations = o.clock_calibrations;
  return config;
}

// Everything after a successful build: the reference, the cases, the sanitizer pass.
void JudgeBuilt(const RunOptions& o, const Problem& problem, const std::vector<Case>& cases, RunReport& report,
                std::chrono::steady_clock::time_point start) {
  CompileCache ref_cache(o.cache_dir);
  auto reference = Reference::Load(problem, ref_cache);
  if (!reference) {
    report.message = reference.error().message;
    FailAll(report, cases, Verdict::kInternalError, reference.error().message);
    return;
  }
  CaseRunnerConfig config = RunnerConfig(o, report);
  config.reference = &*reference;
  config.run_secret = o.run_secret;
  report.flush_mode = o.flush_mode;
  spdlog::debug("{}: built and reference loaded after {:.3f} s", o.submission,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  std::vector<PreparedCase> small;
  std::optional<PreparedCase> to_profile;
  {
    CaseRunner runner(problem, config);
    RunCases(o, problem, cases, runner, *reference, report, &small, &to_profile);
    report.protections = runner.protections();
  }
  FlagSizeSpecialCasing(&report.cases);
  if (!o.sanitize_tools.empty() && !(o.interrupted && o.interrupted->load())) {
    if (o.on_stage) o.on_stage("running compute-sanitizer (" + std::to_string(small.size()) + " small cases)");
    SanitizeOptions so;
    so.tools = o.sanitize_tools;
    report.sanitizers = RunSanitizers(problem, config, small, so);
  }
  if (o.profile && !(o.interrupted && o.interrupted->load())) {
    std::string why_not;
    auto index = CaseToProfile(report.cases, o.profile_case, &why_not);
    if (index && to_profile && to_profile->spec.name == report.cases[*index].name) {
      if (o.on_stage) o.on_stage("profiling case " + to_profile->spec.name + " under Nsight Compute");
      report.profiles.push_back(ProfileCase(problem, config, *to_profile, report.cases[*index], report));
    } else {
      report.profiles.push_back(NotProfiled(o.profile_case, why_not));
    }
  }
  for (const auto& p : report.protections)
    if (!p.active) report.warnings.push_back("sandbox layer inactive: " + p.name + " (" + p.detail + ")");
}

}  // namespace

Expected<RunReport> RunSubmission(const RunOptions& o) {
  auto start = std::chrono::steady_clock::now();
  RunReport report;
  report.started_at = UtcNow();
  report.submission_path = o.submission;
  JUDGE_TRY(ValidateSubmissionPath(o.submission));
  auto source = ReadFile(o.submission);
  if (!source) return source.error();
  report.submission_sha256 = Sha256Hex(*source);
  auto problem = LoadRunProblem(o);
  if (!problem) return problem.error();
  report.problem = problem->name;
  report.tolerance = problem->check.tolerance;
  report.check = problem->check.Describe();
  auto cases = LoadRunCases(o, *problem);
  if (!cases) return cases.error();
  JUDGE_TRY(AttachDevice(o, report));
  spdlog::debug("{}: device known after {:.3f} s", o.submission,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (auto st = Build(o, *problem, report); !st) {
    report.message = "the judge could not build the submission: " + st.error().message;
    FailAll(report, *cases, Verdict::kInternalError, report.message);
  } else if (!report.build.ok) {
    FailAll(report, *cases, Verdict::kCompileError, report.message.empty() ? "compile error" : report.message);
  } else {
    JudgeBuilt(o, *problem, *cases, report, start);
  }
  std::vector<Verdict> verdicts;
  for (const auto& c : report.cases) verdicts.push_back(c.verdict);
  report.verdict = WorstVerdict(verdicts);
  report.exit_code = ExitCodeForVerdict(report.verdict);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MakeTextValid(report);
  return report;
}

Expected<std::unique_ptr<CompilePool>> CompileAhead(const RunOptions& o, const std::vector<std::string>& files,
                                                    const std::string& target, int jobs) {
  auto problem = LoadProblem((fs::path(o.root) / "problems").string(), o.problem);
  if (!problem) return problem.error();
  std::vector<std::function<void()>> compiles;
  for (const auto& path : files)
    compiles.push_back([o, path, target, problem = *problem] {
      // A failure here is found again, and reported, when the submission is graded.
      if (!o.cache_dir.empty() && ExtensionOf(path) != ".so")
        (void)BuildOnly(path, o.device, target, o.cache_dir, problem, o.sandbox);
    });
  const int threads = std::max(1, std::min(jobs, int(compiles.size())));
  return std::make_unique<CompilePool>(threads, std::move(compiles));
}

Expected<BuildOnlyResult> BuildOnly(const std::string& source, DeviceKind device, const std::string& arch,
                                    const std::string& cache_dir, const Problem& problem, bool sandbox) {
  JUDGE_TRY(ValidateSubmissionPath(source));
  auto compiler = CompilerFor(device, problem);
  CompileCache cache(cache_dir, CompileSandboxPolicy{sandbox});
  SourceForBuild compiled(source);
  auto built = cache.Build(*compiler, compiled.path(), TargetFor(device, arch, nullptr), 600);
  if (!built) return built.error();
  BuildOnlyResult r{built->ok, built->library_path, compiled.Log(built->log), built->cache_hit, built->sandbox};
  if (!r.ok) return r;
  auto symbols = ReadExportedFunctions(r.library_path);
  if (!symbols) return symbols.error();
  EntryPointCheck entry = CheckEntryPoint(*symbols, problem.entry_point, problem.Declaration());
  if (!entry.found) {
    r.ok = false;
    r.log += "error: " + entry.message + "\n";
  }
  return r;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/cli/profile_commands.h"

#include <iostream>

#include <nlohmann/json.hpp>

#include "judge/cli/options.h"
#include "judge/report/reporter.h"
#include "judge/run/profile_run.h"
#include "judge/run/run_pipeline.h"

namespace judge::cli {
namespace {

int ExitFor(const RunReport& report) {
  if (report.profiles.empty()) return int(ExitCode::kInternalError);
  switch (report.profiles.front().status) {
    case profile::ProfileStatus::kProfiled: return 0;
    case profile::ProfileStatus::kSkipped: return int(ExitCode::kRejected);  // the case failed: its verdict says why
    default: return kProfilerUnavailableExit;
  }
}

void PrintText(const RunReport& report, const std::string& file) {
  std::cout << "judge profile | problem " << report.problem << " | " << file << "\n";
  if (report.device) std::cout << "device: " << report.device->name << ", " << report.device->sm_count << " SMs\n";
  for (const CaseResult& c : report.cases)
    if (!c.IsHiddenTwin())
      std::cout << "  " << c.name << ": " << VerdictShort(c.verdict) << ", median " << FormatMs(c.FigureMs())
                << " (unprofiled)\n";
  for (const auto& p : report.profiles) std::cout << profile::FormatProfileText(p);
}

void PrintJson(const RunReport& report, const std::string& file) {
  nlohmann::json j = {{"schema", "gpu-judge.profile"},
                      {"schema_version", 1},
                      {"submission", file},
                      {"problem", report.problem},
                      {"verdict", VerdictShort(report.verdict)}};
  nlohmann::json profiles = nlohmann::json::array();
  for (const auto& p : report.profiles) profiles.push_back(profile::ProfileToJson(p));
  j["profiles"] = profiles;
  std::cout << j.dump(2) << "\n";
}

}  // namespace

void AddProfileOptions(cxxopts::Options& opts) {
  AddMeasureOptions(opts);
  opts.add_options()("case", "the case to profile (default: the first performance case)",
                     cxxopts::value<std::string>()->default_value(""))(
      "format", "text or json", cxxopts::value<std::string>()->default_value("text"))("q,quiet",
                                                                                      "no progress lines on stderr")(
      "no-sandbox", "run the worker without its sandbox (debugging only; the report says so)");
}

void AddProfileOption(cxxopts::Options& opts) {
  opts.add_options()("profile",
                     "also run one performance case's solve() under Nsight Compute and diagnose why it is slow "
                     "(information only; docs/PROFILE.md)");
}

Expected<int> ProfileCommand(const Invocation& in) {
  const std::string format = in.options["format"].as<std::string>();
  if (format != "text" && format != "json")
    return MakeError(ErrorCode::kUsage, "unknown --format \"" + format + "\" (expected text or json)");
  auto o = ReadRunOptions(in, in.operands);
  if (!o) return o.error();
  o->submission = in.operands[0];
  o->profile = true;
  o->profile_case = in.options["case"].as<std::string>();
  o->case_filters = {o->profile_case.empty() ? std::string("performance") : o->profile_case};
  // Said before any compile or GPU probe: without ncu nothing here can be measured.
  if (o->device == DeviceKind::kCuda && FindNcu().empty()) {
    std::cerr << "judge profile: " << profile::NcuMissingAdvice() << "\n";
    return kProfilerUnavailableExit;
  }
  if (!in.options.count("quiet")) PrintStages(*o);
  auto report = RunSubmission(*o);
  if (!report) return report.error();
  if (Interrupted()) return int(ExitCode::kInterrupted);
  if (report->verdict == Verdict::kCompileError) {
    std::cerr << "judge profile: compile error\n" << report->build.log << "\n";
    return int(ExitCode::kRejected);
  }
  if (format == "json")
    PrintJson(*report, in.operands[0]);
  else
    PrintText(*report, in.operands[0]);
  return ExitFor(*report);
}

}  // namespace judge::cli

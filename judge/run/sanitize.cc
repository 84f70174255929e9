// SPDX-License-Identifier: MIT
#include "judge/run/sanitize.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <regex>
#include <sstream>

#include "judge/util/fs.h"
#include "judge/util/subprocess.h"

namespace judge {

std::string FindComputeSanitizer() {
  if (auto p = FindOnPath("compute-sanitizer"); !p.empty()) return p;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* home = std::getenv(var)) {
      std::string p = std::string(home) + "/bin/compute-sanitizer";
      if (::access(p.c_str(), X_OK) == 0) return p;
    }
  return ::access("/usr/local/cuda/bin/compute-sanitizer", X_OK) == 0 ? "/usr/local/cuda/bin/compute-sanitizer" : "";
}

SanitizerResult ParseSanitizerLog(const std::string& tool, const std::string& log) {
  SanitizerResult r;
  r.tool = tool;
  static const std::regex kErrors("ERROR SUMMARY: ([0-9]+) error");
  static const std::regex kRace(
      "RACECHECK SUMMARY: ([0-9]+) hazards? displayed \\(([0-9]+) errors?, ([0-9]+) warnings?\\)");
  std::smatch m;
  if (std::regex_search(log, m, kRace)) {
    r.ran = true;
    r.errors = std::stoi(m[2]);
    r.warnings = std::stoi(m[3]);
    r.summary = m[0];
  } else if (std::regex_search(log, m, kErrors)) {
    r.ran = true;
    r.errors = std::stoi(m[1]);
    r.summary = m[0];
  } else {
    r.summary = "no summary in the sanitizer's output";
  }
  std::stringstream in(log);
  for (std::string line; std::getline(in, line) && r.findings.size() < 6000;)
    if (line.rfind("=========", 0) == 0 && line.find("SUMMARY") == std::string::npos) r.findings += line + "\n";
  return r;
}

std::vector<SanitizerResult> RunSanitizers(const Problem& problem, const CaseRunnerConfig& base,
                                           const std::vector<PreparedCase>& cases, const SanitizeOptions& options) {
  std::vector<SanitizerResult> results;
  std::string sanitizer = FindComputeSanitizer();
  std::vector<const PreparedCase*> small;
  for (const auto& c : cases)
    if (!c.spec.IsPerformance() && problem.MinimumBytes(c.spec.scalars).value_or(0) <= options.max_case_bytes)
      small.push_back(&c);
  std::sort(small.begin(), small.end(), [&](const PreparedCase* a, const PreparedCase* b) {
    return problem.MinimumBytes(a->spec.scalars).value_or(0) < problem.MinimumBytes(b->spec.scalars).value_or(0);
  });
  if (small.size() > options.max_cases) small.resize(options.max_cases);
  for (const std::string& tool : options.tools) {
    SanitizerResult failed;
    failed.tool = tool;
    if (sanitizer.empty() || base.device_kind != DeviceKind::kCuda) {
      failed.summary = base.device_kind != DeviceKind::kCuda
                           ? "needs a CUDA device"
                           : "compute-sanitizer not found (it ships with the CUDA Toolkit)";
      results.push_back(failed);
      continue;
    }
    auto dir = MakeTempDir(std::filesystem::temp_directory_path().string(), "gpu-judge-sanitize-");
    if (!dir) {
      failed.summary = dir.error().message;
      results.push_back(failed);
      continue;
    }
    std::string log_path = *dir + "/" + tool + ".log";
    CaseRunnerConfig config = base;
    config.wrapper = {sanitizer, "--tool", tool, "--log-file", log_path, "--print-limit", "20"};
    config.single_call = true;
    config.ahead = nullptr;            // a sanitizer's worker takes seconds to start: none is started on spec
    config.finish_grace_seconds = 60;  // the tool writes its summary as the worker exits
    config.time_scale = 50;            // instrumented kernels run far slower
    auto start = std::chrono::steady_clock::now();
    int ran = 0;
    {
      Problem slow = problem;
      CaseRunner supervisor(slow, config);
      for (const PreparedCase* c : small) {
        double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (spent > options.budget_seconds) break;
        supervisor.RunCase(*c);
        ++ran;
      }
    }
    std::string log = ReadFile(log_path).value_or(std::string());
    SanitizerResult r = ParseSanitizerLog(tool, log);
    if (!r.ran)
      r.summary += log.empty() ? " (no log written)" : ": " + log.substr(log.size() > 1500 ? log.size() - 1500 : 0);
    r.cases = ran;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    results.push_back(r);
    RemoveTree(*dir);
  }
  return results;
}

}  // namespace judge

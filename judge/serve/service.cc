// SPDX-License-Identifier: MIT
#include "judge/serve/service.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include <spdlog/spdlog.h>

#include "judge/grade/grading_policy.h"
#include "judge/problem/problem.h"
#include "judge/report/reporter.h"
#include "judge/serve/api.h"
#include "judge/serve/http_server.h"
#include "judge/serve/tokens.h"
#include "judge/util/fs.h"
#include "judge/util/sha256.h"

namespace judge::serve {
namespace fs = std::filesystem;

namespace {

// The problems the service answers for, read once at start: a problem that does not load stops
// the service with its error, rather than failing every submission to it later.
Expected<std::vector<ProblemInfo>> Catalog(const std::string& root, const std::vector<std::string>& wanted) {
  const std::string problems_dir = (fs::path(root) / "problems").string();
  std::vector<std::string> names = wanted.empty() ? ListProblems(problems_dir) : wanted;
  if (names.empty()) return MakeError(ErrorCode::kUsage, "no problems in " + problems_dir + " (give --root)");
  std::vector<ProblemInfo> out;
  for (const auto& name : names) {
    auto problem = LoadProblem(problems_dir, name);
    if (!problem) return MakeError(problem.error().code, "problem " + name + ": " + problem.error().message);
    auto statement = ReadFile(problem->statement_path);
    if (!statement) return MakeError(statement.error().code, "problem " + name + ": " + statement.error().message);
    out.push_back({problem->name, problem->title, *statement, problem->Declaration()});
  }
  return out;
}

// The points of each problem served (Gradescope's results.json): --points for all, else each
// problem's grading.json, else the defaults; read at start, so a broken file stops the service.
Expected<std::map<std::string, GradingPolicy>> Policies(const std::string& root,
                                                        const std::vector<ProblemInfo>& catalog,
                                                        const std::string& points_file) {
  std::map<std::string, GradingPolicy> out;
  for (const auto& p : catalog) {
    std::string path = points_file;
    if (path.empty()) {
      path = (fs::path(root) / "problems" / p.name / "grading.json").string();
      if (!fs::exists(path)) path.clear();
    }
    auto policy = path.empty() ? Expected<GradingPolicy>(GradingPolicy{}) : LoadGradingPolicy(path);
    if (!policy) return policy.error();
    out[p.name] = *policy;
  }
  return out;
}

}  // namespace

Expected<std::string> RenderStoredReport(const std::string& format, const std::string& report_json,
                                         const GradingPolicy& grading) {
  Json j = Json::parse(report_json, nullptr, false);
  if (j.is_discarded()) return MakeError(ErrorCode::kBadInput, "the stored report is not JSON");
  auto report = ReportFromJson(j);
  if (!report) return report.error();
  ReporterOptions options;
  options.grading = grading;
  auto reporter = MakeReporter(format, options);
  if (!reporter) return MakeError(ErrorCode::kUsage, "no report format " + format);
  return Render(*reporter, *report);
}

std::string DefaultWorkerName(const std::string& data_dir) {
  // Kept in the folder rather than taken from the host's name, which a container gets anew each
  // time it is started: the name must survive the restart that gives its jobs back.
  const fs::path file = fs::path(data_dir) / "worker-id";
  if (auto known = ReadFile(file.string()); known && !known->empty()) {
    std::string id = *known;
    while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
    if (!id.empty()) return id;
  }
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "localhost");
  std::error_code ec;
  fs::create_directories(data_dir, ec);
  const std::string id = std::string(host) + "-" + Sha256Hex(RandomBytes(16)).substr(0, 12);
  if (auto st = WriteFileAtomic(file.string(), id + "\n"); !st)
    spdlog::warn("cannot keep the worker name in {}: {}", file.string(), st.error().message);
  return id;
}

Status Serve(ServeOptions options, const std::atomic<bool>& stop,
             const std::function<void(const std::string&)>& on_listening) {
  RunOptions& base = options.grader.base;
  auto catalog = Catalog(base.root, options.problems);
  if (!catalog) return catalog.error();
  // No GPU stops the service before it accepts anything (exit 3), not every submission later.
  auto facts = ProbeDeviceFacts(base);
  if (!facts) return facts.error();
  options.grader.device = *facts;
  options.grader.work_dir = (fs::path(options.data_dir) / "work").string();
  auto store = OpenStore(options.data_dir, options.database_url);
  if (!store) return store.error();

  Grader grader(**store, options.grader);
  ApiConfig config;
  config.problems = std::move(*catalog);
  config.limits = options.limits;
  config.wake = [&grader] { grader.Wake(); };
  auto policies = Policies(base.root, config.problems, options.points_file);
  if (!policies) return policies.error();
  config.render = [policies = std::move(*policies)](const std::string& format, const std::string& problem,
                                                    const std::string& report_json) -> Expected<std::string> {
    auto policy = policies.find(problem);
    return RenderStoredReport(format, report_json, policy == policies.end() ? GradingPolicy{} : policy->second);
  };
  Api api(**store, std::move(config));
  HttpServerOptions http;
  http.host = options.host;
  http.port = options.port;
  http.max_body_bytes = options.limits.max_body_bytes;
  HttpServer server(api, http);

  JUDGE_TRY(grader.Start());
  auto port = server.Start();
  if (!port) {
    grader.Stop();
    return port.error();
  }
  if (on_listening) on_listening("http://" + options.host + ":" + std::to_string(*port));
  while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // Requests first (no new submissions), then the graders, which give back what they hold.
  server.Stop();
  grader.Stop();
  return Status::Ok();
}

}  // namespace judge::serve

// SPDX-License-Identifier: MIT
// `judge serve` and `judge token`: the options of the service and of its tokens, read into
// judge/serve's calls. The work is in judge/serve.
#include "judge/cli/serve_commands.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "judge/build/compile_cache.h"
#include "judge/cli/options.h"
#include "judge/cli/profile_commands.h"
#include "judge/problem/problem.h"
#include "judge/serve/service.h"
#include "judge/serve/sql.h"
#include "judge/serve/tokens.h"
#include "judge/util/fs.h"

namespace judge::cli {
namespace {

void AddStoreOptions(cxxopts::Options& opts) {
  opts.add_options()("data", "the service's folder: its SQLite queue (judge.db), compile cache and work files",
                     cxxopts::value<std::string>())(
      "database",
      "a PostgreSQL connection string (postgresql://... or host=... dbname=...) for a queue that several hosts "
      "share; default: $JUDGE_DATABASE_URL, else SQLite in --data",
      cxxopts::value<std::string>());
}

// A password on the command line is readable by every process of the host through
// /proc/<pid>/cmdline, the kernels being graded included (docs/SECURITY.md): it is refused there,
// and taken from the environment or PostgreSQL's own password file instead.
Expected<std::string> DatabaseUrl(const cxxopts::ParseResult& args) {
  if (args.count("database")) {
    std::string url = args["database"].as<std::string>();
    if (serve::sql::RedactConninfo(url) != url)
      return MakeError(ErrorCode::kUsage,
                       "--database holds a password, which every process of this host could read on the command "
                       "line: put the whole string in $JUDGE_DATABASE_URL instead, or the password in $PGPASSWORD "
                       "or ~/.pgpass");
    return url;
  }
  const char* env = std::getenv("JUDGE_DATABASE_URL");
  return std::string(env ? env : "");
}

Expected<std::unique_ptr<serve::Store>> OpenStoreFor(const Invocation& in) {
  if (!in.options.count("data"))
    return MakeError(ErrorCode::kUsage, "--data DIR is needed: the folder `judge serve` keeps its state in");
  auto url = DatabaseUrl(in.options);
  if (!url) return url.error();
  return serve::OpenStore(in.options["data"].as<std::string>(), *url);
}

// The last line of `token add` is the token alone, for scripts: `judge token add alice ... | tail -1`.
Expected<int> AddToken(serve::Store& store, const std::string& name, const std::string& alias, bool admin) {
  if (!serve::IsValidName(name))
    return MakeError(ErrorCode::kUsage, "a token's name is 1 to 64 letters, digits, '.', '_', '@' or '-', not \"" +
                                            name + "\" (a roster's login, e.g. alice or a.b@uni.edu)");
  const std::string token = serve::NewToken();
  auto who = store.AddToken(name, alias, admin, serve::HashToken(token));
  if (!who) return who.error();
  std::cerr << "token for " << who->name << (admin ? " (admin)" : "")
            << ": keep it now, it is stored only as a hash and cannot be shown again\n";
  std::cout << token << "\n";
  return 0;
}

Expected<int> ImportRoster(serve::Store& store, const std::string& path) {
  auto text = ReadFile(path);
  if (!text) return text.error();
  auto rows = serve::ParseRoster(*text);
  if (!rows) return MakeError(rows.error().code, path + ": " + rows.error().message);
  // Checked whole before anything is added, so a roster with a taken name adds nobody.
  auto existing = store.ListTokens();
  if (!existing) return existing.error();
  for (const auto& row : *rows)
    for (const auto& t : *existing)
      if (t.who.name == row.name)
        return MakeError(
            ErrorCode::kUsage,
            path + ": " + row.name + " has a token already (revoke it first, or leave it out of the roster)");
  std::cout << "name,token\n";
  for (const auto& row : *rows) {
    const std::string token = serve::NewToken();
    auto who = store.AddToken(row.name, row.alias, row.admin, serve::HashToken(token));
    if (!who) return who.error();
    std::cout << row.name << "," << token << "\n";
  }
  std::cerr << rows->size() << " token(s) added; the CSV above is the only copy of them\n";
  return 0;
}

}  // namespace

void AddTokenOptions(cxxopts::Options& opts) {
  AddStoreOptions(opts);
  opts.add_options()("admin", "the token may read every submission and rejudge")(
      "alias", "the name the leaderboard shows (default: NAME)", cxxopts::value<std::string>());
}

Expected<int> TokenCommand(const Invocation& in) {
  const std::string action = in.operands[0];
  const std::string arg = in.operands.size() > 1 ? in.operands[1] : "";
  const bool needs_arg = action == "add" || action == "revoke" || action == "import";
  if (action != "add" && action != "list" && action != "revoke" && action != "import")
    return MakeError(ErrorCode::kUsage,
                     "unknown token action \"" + action + "\" (add NAME, list, revoke NAME, import ROSTER.csv)");
  if (needs_arg == arg.empty())
    return MakeError(ErrorCode::kUsage, needs_arg ? "judge token " + action + " needs " +
                                                        (action == "import" ? "a roster CSV file" : "a NAME")
                                                  : "judge token list takes no argument");
  auto store = OpenStoreFor(in);
  if (!store) return store.error();
  if (action == "add")
    return AddToken(**store, arg, in.options.count("alias") ? in.options["alias"].as<std::string>() : "",
                    in.options.count("admin") > 0);
  if (action == "import") return ImportRoster(**store, arg);
  if (action == "revoke") {
    auto revoked = (*store)->RevokeToken(arg);
    if (!revoked) return revoked.error();
    if (!*revoked) return MakeError(ErrorCode::kUsage, "no token named " + arg + " (judge token list shows them)");
    std::cerr << "revoked " << arg << "\n";
    return 0;
  }
  auto tokens = (*store)->ListTokens();
  if (!tokens) return tokens.error();
  for (const auto& t : *tokens)
    std::cout << t.who.name << (t.who.alias.empty() ? "" : " (" + t.who.alias + ")") << (t.who.admin ? " admin" : "")
              << (t.revoked ? " revoked" : "") << "\n";
  return 0;
}

void AddServeOptions(cxxopts::Options& opts) {
  AddMeasureOptions(opts);
  AddJudgingOptions(opts);
  // A course that enables it gives every report "why is it slow" (its HTML, shown by the web page).
  AddProfileOption(opts);
  AddStoreOptions(opts);
  serve::Limits limits;
  opts.add_options()("port", "TCP port (0: any free one, printed)", cxxopts::value<int>()->default_value("8080"))(
      "host", "address to listen on", cxxopts::value<std::string>()->default_value("0.0.0.0"))(
      "problems", "problems served (comma separated; default: every problem of the catalog)",
      cxxopts::value<std::string>())("jobs", "parallel compiles (default: the CPU's threads)",
                                     cxxopts::value<int>()->default_value("0"))(
      "worker-name",
      "this service's name in a queue several hosts share (default: made once and kept in DATA_DIR/worker-id)",
      cxxopts::value<std::string>())(
      "lease-seconds", "how long a job stays claimed without a heartbeat before another host may take it",
      cxxopts::value<double>()->default_value(std::to_string(serve::kDefaultLeaseSeconds)))(
      "max-in-flight", "submissions of one token not yet graded",
      cxxopts::value<int64_t>()->default_value(std::to_string(limits.max_in_flight)))(
      "max-per-hour", "submissions of one token per hour",
      cxxopts::value<int64_t>()->default_value(std::to_string(limits.max_per_hour)))(
      "max-source-kb", "largest source file, KiB",
      cxxopts::value<int64_t>()->default_value(std::to_string(limits.max_source_bytes >> 10)));
}

Expected<int> ServeCommand(const Invocation& in) {
  const cxxopts::ParseResult& args = in.options;
  if (!args.count("data"))
    return MakeError(ErrorCode::kUsage,
                     "judge serve needs --data DIR: the folder it keeps its queue, cache and work in");
  serve::ServeOptions s;
  s.data_dir = args["data"].as<std::string>();
  auto url = DatabaseUrl(args);
  if (!url) return url.error();
  s.database_url = *url;
  s.host = args["host"].as<std::string>();
  s.port = args["port"].as<int>();
  JUDGE_TRY(CheckRange("port", s.port, 0, 65535));  // 0: any free port, printed when listening
  if (args.count("problems")) s.problems = SplitCommas(args["problems"].as<std::string>());
  if (args.count("testcases") && s.problems.size() != 1)
    return MakeError(ErrorCode::kUsage,
                     "--testcases names one problem's cases: serve that problem alone (--problems NAME) with it");
  s.limits.max_in_flight = args["max-in-flight"].as<int64_t>();
  s.limits.max_per_hour = args["max-per-hour"].as<int64_t>();
  const int64_t source_kb = args["max-source-kb"].as<int64_t>();
  JUDGE_TRY(CheckRange("max-in-flight", double(s.limits.max_in_flight), 1, 1e6));
  JUDGE_TRY(CheckRange("max-per-hour", double(s.limits.max_per_hour), 1, 1e6));
  JUDGE_TRY(CheckRange("max-source-kb", double(source_kb), 1, 64 * 1024));
  s.limits.max_source_bytes = size_t(source_kb) << 10;
  s.limits.max_body_bytes = std::max(s.limits.max_body_bytes, s.limits.max_source_bytes + (64 << 10));
  if (args.count("points")) s.points_file = args["points"].as<std::string>();
  auto run = ReadRunOptions(in, {});
  if (!run) return run.error();
  s.grader.base = std::move(*run);
  ShareAcrossRuns(s.grader.base);
  // Everything the service keeps is in --data, the compile cache too, unless a cache is named.
  if (!args.count("cache-dir") && !std::getenv("JUDGE_CACHE_DIR") && !s.grader.base.cache_dir.empty())
    s.grader.base.cache_dir = (std::filesystem::path(s.data_dir) / "cache").string();
  s.grader.compile_jobs = args["jobs"].as<int>();
  JUDGE_TRY(CheckRange("jobs", s.grader.compile_jobs, 0, 1024));
  s.grader.lease_seconds = args["lease-seconds"].as<double>();
  JUDGE_TRY(CheckRange("lease-seconds", s.grader.lease_seconds, 3, 86400, "seconds"));
  s.grader.worker_name =
      args.count("worker-name") ? args["worker-name"].as<std::string>() : serve::DefaultWorkerName(s.data_dir);
  JUDGE_TRY(serve::Serve(std::move(s), Interrupted(), [](const std::string& address) {
    std::cerr << "serving on " << address << " (Ctrl-C stops; interrupted gradings go back to the queue)\n";
  }));
  return 0;
}

}  // namespace judge::cli

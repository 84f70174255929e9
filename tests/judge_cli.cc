// SPDX-License-Identifier: MIT
#include "tests/judge_cli.h"

#include <unistd.h>

#include <filesystem>

#include "judge/util/fs.h"

namespace judge::testing {

std::string SourcePath(const std::string& relative) { return std::string(JUDGE_SOURCE_DIR) + "/" + relative; }

JudgeRun RunJudge(std::vector<std::string> args, double timeout_seconds, std::vector<std::string> launcher) {
  static int counter = 0;
  std::string out = std::filesystem::temp_directory_path().string() + "/judge-e2e-" + std::to_string(::getpid()) + "-" +
                    std::to_string(counter++) + ".json";
  std::vector<std::string> argv = {JUDGE_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  if (args.size() && args[0] == "run") {
    bool has_root = false;
    for (const auto& a : args) has_root |= a == "--root";
    argv.insert(argv.end(), {"--out", out});
    if (!has_root) argv.insert(argv.end(), {"--root", JUDGE_SOURCE_DIR});
    bool has_cache = false;
    for (const auto& a : args) has_cache |= a == "--cache-dir" || a == "--no-cache";
    if (!has_cache) argv.insert(argv.end(), {"--cache-dir", JUDGE_TEST_CACHE_DIR});
  }
  argv.insert(argv.begin(), launcher.begin(), launcher.end());
  JudgeRun run;
  auto r = RunProcess(argv, ProcessOptions{timeout_seconds, 4 << 20, ""});
  if (!r) {
    run.output = r.error().message;
    return run;
  }
  run.exit_code = r->signal ? 128 + r->signal : r->exit_code;
  run.output = r->output;
  auto text = ReadFile(out);
  if (text) run.report = Json::parse(*text, nullptr, false);
  std::filesystem::remove(out);
  return run;
}

}  // namespace judge::testing

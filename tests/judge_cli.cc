// SPDX-License-Identifier: MIT
#include "tests/judge_cli.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "judge/util/fs.h"

namespace judge::testing {

std::string SourcePath(const std::string& relative) { return std::string(JUDGE_SOURCE_DIR) + "/" + relative; }

JudgeRun RunJudgeExactly(const std::vector<std::string>& args, double timeout_seconds,
                         const std::vector<std::string>& launcher) {
  std::vector<std::string> argv = launcher;
  argv.push_back(JUDGE_BINARY);
  argv.insert(argv.end(), args.begin(), args.end());
  JudgeRun run;
  auto r = RunProcess(argv, ProcessOptions{timeout_seconds, 4 << 20, ""});
  if (!r) {
    run.output = r.error().message;
    return run;
  }
  run.exit_code = r->signal ? 128 + r->signal : r->exit_code;
  run.timed_out = r->timed_out;
  run.output = r->output;
  return run;
}

JudgeRun RunJudge(std::vector<std::string> args, double timeout_seconds, std::vector<std::string> launcher) {
  static int counter = 0;
  std::string out = std::filesystem::temp_directory_path().string() + "/judge-e2e-" + std::to_string(::getpid()) + "-" +
                    std::to_string(counter++) + ".json";
  if (args.size() && args[0] == "run") {
    bool has_root = false, has_cache = false;
    for (const auto& a : args) {
      has_root |= a == "--root";
      has_cache |= a == "--cache-dir" || a == "--no-cache";
    }
    args.insert(args.end(), {"--out", out});
    if (!has_root) args.insert(args.end(), {"--root", JUDGE_SOURCE_DIR});
    if (!has_cache) args.insert(args.end(), {"--cache-dir", JUDGE_TEST_CACHE_DIR});
  }
  JudgeRun run = RunJudgeExactly(args, timeout_seconds, launcher);
  auto text = ReadFile(out);
  if (text) run.report = Json::parse(*text, nullptr, false);
  std::filesystem::remove(out);
  return run;
}

TempFolder::TempFolder(const std::string& prefix, mode_t mode)
    : path_(MakeTempDir(std::filesystem::temp_directory_path().string(), prefix).value()) {
  ::chmod(path_.c_str(), mode);
}

TempFolder::~TempFolder() { RemoveTree(path_); }

std::string TempFolder::Write(const std::string& name, const std::string& text) const {
  std::string file = path_ + "/" + name;
  EXPECT_TRUE(WriteFileAtomic(file, text).ok());
  ::chmod(file.c_str(), 0644);
  return file;
}

}  // namespace judge::testing

// SPDX-License-Identifier: MIT
#pragma once
// Runs the real `judge` binary the way a user does, for end-to-end tests.
#include <sys/types.h>

#include <string>
#include <vector>

#include "judge/util/json_fields.h"
#include "judge/util/subprocess.h"

namespace judge::testing {

struct JudgeRun {
  int exit_code = -1;      // 128 + the signal when killed by one
  bool timed_out = false;  // killed at the deadline
  std::string output;      // stdout and stderr
  Json report;             // parsed from --out, null if absent
  const Json* Case(const std::string& name) const {
    if (!report.is_object()) return nullptr;
    for (const auto& c : report["cases"])
      if (c["name"] == name) return &c;
    return nullptr;
  }
};

// `judge <args...> --out <tmp>.json`, with a per-test compile cache in the build tree. `launcher`
// runs the judge (e.g. setpriv, to run it as another user).
JudgeRun RunJudge(std::vector<std::string> args, double timeout_seconds = 600, std::vector<std::string> launcher = {});
// `judge <args...>` and nothing added: for tests of the options RunJudge adds itself.
JudgeRun RunJudgeExactly(const std::vector<std::string>& args, double timeout_seconds = 600,
                         const std::vector<std::string>& launcher = {});

std::string SourcePath(const std::string& relative);  // inside the repository

// A folder of the test's own in the temp folder, which an unprivileged judge may read; removed
// with its contents when the test is done.
class TempFolder {
 public:
  explicit TempFolder(const std::string& prefix, mode_t mode = 0755);
  ~TempFolder();
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const std::string& path() const { return path_; }
  std::string Write(const std::string& name, const std::string& text) const;  // mode 0644; its path

 private:
  std::string path_;
};

}  // namespace judge::testing

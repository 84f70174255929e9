// SPDX-License-Identifier: MIT
#pragma once
// `judge serve`: the store, the graders and the HTTP API put together, run until told to stop.
//
//   HTTP threads ──> Api ──> Store (SQLite DIR/judge.db, or PostgreSQL) <── Grader (compiles, runners)
//                     └─ wake ──────────────────────────────────────────────────┘
//
// DIR holds everything the service keeps: judge.db (SQLite's, when no database URL is given),
// cache/ (compiled submissions, the GPU's measured ceilings) and work/ (sources being graded).
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "judge/grade/grading_policy.h"
#include "judge/serve/grader.h"
#include "judge/serve/limits.h"

namespace judge::serve {

struct ServeOptions {
  std::string host = "0.0.0.0";
  int port = 8080;
  std::string data_dir;
  std::string database_url;           // empty: SQLite in data_dir
  std::vector<std::string> problems;  // served; empty: every problem of the catalog
  std::string points_file;            // the grading policy of every problem; empty: each one's grading.json
  Limits limits;
  GraderOptions grader;  // its base RunOptions come from the command line, as batch's do
};

// The service's default name in a queue: made once (this host's name and a random part) and kept in
// DIR/worker-id. Two services on one database have folders of their own, so two names; a service
// restarted on its folder, in a new container too, has its old name, so it takes back at once the
// gradings it was killed in (Grader::Start).
std::string DefaultWorkerName(const std::string& data_dir);

// A stored JSON report rendered as `format` ("html", "gradescope", ...) with `grading`'s points.
Expected<std::string> RenderStoredReport(const std::string& format, const std::string& report_json,
                                         const GradingPolicy& grading);

// Runs until `stop` is set; `on_listening` hears the address once requests are answered.
Status Serve(ServeOptions options, const std::atomic<bool>& stop,
             const std::function<void(const std::string&)>& on_listening);

}  // namespace judge::serve

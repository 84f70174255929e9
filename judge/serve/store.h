// SPDX-License-Identifier: MIT
#pragma once
// The service's durable state: tokens, submissions (the queue) and their results. One interface,
// one implementation over SQL (sql_store.cc) and two databases (sql.h): SQLite, embedded, for one
// host; PostgreSQL for many hosts sharing one queue.
//
// The queue's promise (what `kill -9` at any moment must not break):
//  - Enqueue returns only after the row is committed: an id the client got is never lost.
//  - Claim hands a job to one grader under a lease (a number that changes with every claim); a
//    grader heartbeats its leases; a lease that runs out (its host died) makes the job claimable
//    again. PostgreSQL takes the row with FOR UPDATE SKIP LOCKED, SQLite in a write transaction.
//  - Finish records the result only while the caller's lease is current, in the same transaction
//    that marks the submission done, so a submission ends with exactly one result per generation
//    (a rejudge starts a new generation).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "judge/util/expected.h"

namespace judge::serve {

// Stable names on the wire and in the database: "queued", "compiling", "running", "done".
enum class SubmissionStatus { kQueued = 0, kCompiling = 1, kRunning = 2, kDone = 3 };
std::string_view StatusName(SubmissionStatus status);
std::optional<SubmissionStatus> ParseStatus(std::string_view name);

// Who a token belongs to.
struct Principal {
  int64_t id = 0;
  std::string name;   // unique: "alice" (a roster's login)
  std::string alias;  // what the leaderboard shows; empty: the name
  bool admin = false;
};

struct TokenInfo {
  Principal who;
  bool revoked = false;
  int64_t created_ms = 0;  // Unix time, milliseconds
};

struct NewSubmission {
  int64_t owner = 0;     // Principal::id
  std::string problem;   // a problem of the catalog, checked before Enqueue
  std::string filename;  // as uploaded, for display only: never a path on disk
  std::string source;    // the file's bytes
};

// What a token has in flight and sent lately, read inside Enqueue's transaction (for AdmitPolicy).
struct Usage {
  int64_t in_flight = 0;  // not done
  int64_t last_hour = 0;  // created in the hour before now
};

struct Submission {
  int64_t id = 0;
  int64_t owner = 0;
  std::string owner_name, owner_alias;
  std::string problem, filename;
  SubmissionStatus status = SubmissionStatus::kQueued;
  std::string progress;                                     // "case 3/42 perf_4m" while running; empty otherwise
  int64_t created_ms = 0, started_ms = 0, finished_ms = 0;  // 0: not yet
  int generation = 0;                                       // 0 at first; +1 per rejudge
  int attempts = 0;  // gradings started in this generation (more than 1: one was interrupted)
  // When done:
  std::string verdict;      // the short code, "AC", "WA", ... (core/verdict.h)
  double figure_ms = -1;    // the ranked time; < 0: none (not accepted, or no performance case)
  bool flagged = false;     // its timing was flagged: never ranked
  std::string report_json;  // the versioned JSON report (report/json_reporter)
};

struct SubmissionQuery {
  std::optional<int64_t> owner;        // only this principal's
  std::optional<std::string> problem;  // only this problem's
  int64_t limit = 100;                 // newest first
  bool with_source = false;            // (unused by list views; Get returns the source separately)
};

// A job a grader holds.
struct Job {
  int64_t submission_id = 0;
  int64_t lease = 0;  // pass back to SetStage and Finish
  int generation = 0;
  std::string problem, filename, source;
};

struct Result {
  std::string verdict;
  double figure_ms = -1;
  bool flagged = false;
  std::string report_json;
};

struct BestResult {  // one row of a leaderboard: a principal's best accepted, unflagged submission
  Principal who;
  int64_t submission_id = 0;
  double figure_ms = 0;
  int64_t finished_ms = 0;
};

class Store {
 public:
  virtual ~Store() = default;

  // Tokens: only hashes are stored (HashToken, tokens.h). A name is unique; AddToken fails on a
  // name that exists (revoked or not).
  virtual Expected<Principal> AddToken(const std::string& name, const std::string& alias, bool admin,
                                       const std::string& token_hash) = 0;
  virtual Expected<std::optional<Principal>> FindToken(const std::string& token_hash) = 0;  // not revoked
  virtual Expected<std::vector<TokenInfo>> ListTokens() = 0;
  virtual Expected<bool> RevokeToken(const std::string& name) = 0;  // false: no such name

  // The queue. `admit` decides from the owner's usage, inside the transaction that inserts, so
  // concurrent requests cannot pass a limit together; its error is returned as is.
  virtual Expected<int64_t> Enqueue(const NewSubmission& submission,
                                    const std::function<Status(const Usage&)>& admit) = 0;
  // The oldest claimable job (queued, or held under a lease that ran out), now held by `worker`
  // until now + lease_seconds; nullopt when there is none. Marks it compiling, attempts + 1.
  virtual Expected<std::optional<Job>> Claim(const std::string& worker, double lease_seconds) = 0;
  // Extends the leases `worker` names to now + lease_seconds: only those it is still grading, so a
  // job it dropped (a result it could not record) runs out and returns to the queue.
  virtual Status Heartbeat(const std::string& worker, const std::vector<int64_t>& leases, double lease_seconds) = 0;
  // Progress of a held job; false when the lease is no longer the caller's (stop grading it).
  virtual Expected<bool> SetStage(int64_t submission_id, int64_t lease, SubmissionStatus status,
                                  const std::string& progress) = 0;
  // Records the result and marks the submission done, only under the caller's current lease:
  // false when the lease was lost (another grader has it now, or it was rejudged).
  virtual Expected<bool> Finish(int64_t submission_id, int64_t lease, const Result& result) = 0;
  // Every job `worker` holds goes back to the queue (a restarted service's interrupted gradings).
  virtual Expected<int> ReleaseAll(const std::string& worker) = 0;

  // Reads.
  virtual Expected<std::optional<Submission>> Get(int64_t id) = 0;
  virtual Expected<std::optional<std::string>> Source(int64_t id) = 0;
  virtual Expected<std::vector<Submission>> List(const SubmissionQuery& query) = 0;  // no report_json
  // The best accepted, unflagged result per principal on `problem`, fastest first; admins (a teacher's
  // reference kernels) and revoked tokens are not ranked.
  virtual Expected<std::vector<BestResult>> Best(const std::string& problem) = 0;
  // Results recorded per submission (all generations): the exactly-once audit of the tests.
  virtual Expected<std::vector<std::pair<int64_t, int>>> ResultCounts() = 0;

  // Admin: back to the queue as a new generation (verdict cleared). Rejudge returns false for an
  // unknown id; RejudgeProblem the number of submissions requeued.
  virtual Expected<bool> Rejudge(int64_t id) = 0;
  virtual Expected<int> RejudgeProblem(const std::string& problem) = 0;
};

// "DIR" (SQLite file DIR/judge.db, made with its folder) or a PostgreSQL connection string
// ("postgresql://..." or "host=... dbname=..."). The schema is created or checked on open.
Expected<std::unique_ptr<Store>> OpenStore(const std::string& data_dir, const std::string& database_url);

}  // namespace judge::serve

// SPDX-License-Identifier: MIT
// The store's promises, each checked on SQLite (a temporary folder) and on PostgreSQL (a server
// this test starts: tests/serve/pg_server.h; one for the whole process, emptied for each test).
#include "judge/serve/store.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <thread>

#include "judge/serve/sql.h"
#include "judge/serve/tokens.h"
#include "tests/serve/pg_server.h"

namespace judge::serve {
namespace {

enum class Db { kSqlite, kPostgres };
std::string_view DbName(Db db) { return db == Db::kSqlite ? "SQLite" : "PostgreSQL"; }
void PrintTo(Db db, std::ostream* os) { *os << DbName(db); }  // in test names and ctest's list

// The value, or the test fails here with the store's message (thrown: gtest reports it).
template <typename T>
T Ok(Expected<T> e) {
  if (!e.ok()) throw std::runtime_error("store error: " + e.error().message);
  return std::move(*e);
}

void Sleep(double seconds) { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }

// One server for every PostgreSQL test of this process; its failure to start, once, as the reason
// each of them skips.
testing::PgServer* SharedServer(std::string* why) {
  static std::unique_ptr<testing::PgServer> server;
  static std::string failure;
  static bool tried = false;
  if (!tried) {
    tried = true;
    server = std::make_unique<testing::PgServer>();
    failure = server->Start();
    if (!failure.empty()) server.reset();
  }
  *why = failure;
  return server.get();
}

class StoreTest : public ::testing::TestWithParam<Db> {
 protected:
  void SetUp() override {
    if (GetParam() == Db::kPostgres) {
      std::string why;
      testing::PgServer* server = SharedServer(&why);
      if (server == nullptr) GTEST_SKIP() << why;
      why = server->Reset();
      ASSERT_EQ(why, "");
      url_ = server->conninfo();
    } else {
      char templ[] = "/tmp/judge-store-XXXXXX";
      ASSERT_NE(::mkdtemp(templ), nullptr);
      temp_ = templ;
      dir_ = temp_ + "/data";
    }
    store_ = Open();
  }
  void TearDown() override {
    store_.reset();
    if (!temp_.empty()) std::filesystem::remove_all(temp_);
  }

  std::unique_ptr<Store> Open() const { return Ok(OpenStore(dir_, url_)); }

  Principal User(const std::string& name, bool admin = false) {
    return Ok(store_->AddToken(name, name + " A.", admin, HashToken("token-of-" + name)));
  }
  int64_t Post(const Principal& who, const std::string& problem, const std::string& source = "int main() {}") {
    return Ok(store_->Enqueue(NewSubmission{who.id, problem, "solution.cu", source},
                              [](const Usage&) { return Status::Ok(); }));
  }
  Submission Fetch(int64_t id) {
    auto s = Ok(store_->Get(id));
    if (!s) throw std::runtime_error("no submission " + std::to_string(id));
    return *s;
  }
  // Claims and finishes the next job with `result`; its id.
  int64_t Grade(const Result& result) {
    auto job = Ok(store_->Claim("grader", 60));
    if (!job) throw std::runtime_error("nothing to claim");
    EXPECT_TRUE(Ok(store_->Finish(job->submission_id, job->lease, result)));
    return job->submission_id;
  }

  std::string temp_, dir_, url_;
  std::unique_ptr<Store> store_;
};

SubmissionQuery Query(std::optional<int64_t> owner, std::optional<std::string> problem, int64_t limit = 100) {
  SubmissionQuery q;
  q.owner = owner;
  q.problem = std::move(problem);
  q.limit = limit;
  return q;
}

Result Accepted(double ms, bool flagged = false) { return Result{"AC", ms, flagged, "{\"v\":1}"}; }

TEST_P(StoreTest, TokensAreAddedFoundListedAndRevoked) {
  const Principal alice = User("alice");
  const Principal bob = Ok(store_->AddToken("bob", "", true, HashToken("bob-token")));
  EXPECT_NE(alice.id, bob.id);

  auto found = Ok(store_->FindToken(HashToken("bob-token")));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->id, bob.id);
  EXPECT_EQ(found->name, "bob");
  EXPECT_TRUE(found->admin);
  EXPECT_FALSE(Ok(store_->FindToken(HashToken("nobody's token"))));

  auto duplicate = store_->AddToken("alice", "", false, HashToken("another"));
  ASSERT_FALSE(duplicate.ok());
  EXPECT_NE(duplicate.error().message.find("'alice'"), std::string::npos) << duplicate.error().message;

  EXPECT_TRUE(Ok(store_->RevokeToken("alice")));
  EXPECT_FALSE(Ok(store_->RevokeToken("carol")));
  EXPECT_FALSE(Ok(store_->FindToken(HashToken("token-of-alice"))));
  EXPECT_FALSE(store_->AddToken("alice", "", false, HashToken("again")).ok()) << "a revoked name stays taken";

  auto tokens = Ok(store_->ListTokens());
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].who.name, "alice");
  EXPECT_EQ(tokens[0].who.alias, "alice A.");
  EXPECT_TRUE(tokens[0].revoked);
  EXPECT_FALSE(tokens[1].revoked);
  EXPECT_TRUE(tokens[1].who.admin);
  const int64_t now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  EXPECT_NEAR(static_cast<double>(tokens[1].created_ms), static_cast<double>(now_ms), 60e3);
}

TEST_P(StoreTest, EnqueueShowsTheAdmitPolicyTheOwnersUsageAndReturnsItsRefusal) {
  const Principal alice = User("alice"), bob = User("bob");
  std::vector<Usage> seen;
  auto at_most_two_in_flight = [&](const Usage& u) -> Status {
    seen.push_back(u);
    if (u.in_flight >= 2) return MakeError(ErrorCode::kUsage, "two in flight already");
    return Status::Ok();
  };
  auto post = [&](const Principal& who) {
    return store_->Enqueue(NewSubmission{who.id, "p", "a.cu", "x"}, at_most_two_in_flight);
  };
  Ok(post(alice));
  Ok(post(alice));
  auto refused = post(alice);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "two in flight already");
  Ok(post(bob));  // bob's usage is his own
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0].in_flight, 0);
  EXPECT_EQ(seen[1].in_flight, 1);
  EXPECT_EQ(seen[1].last_hour, 1);
  EXPECT_EQ(seen[2].in_flight, 2);
  EXPECT_EQ(seen[3].in_flight, 0);
  EXPECT_EQ(Ok(store_->List({})).size(), 3u) << "the refused post is not stored";

  Grade(Accepted(1));  // one of alice's is done: no longer in flight, still sent this hour
  Ok(post(alice));
  EXPECT_EQ(seen.back().in_flight, 1);
  EXPECT_EQ(seen.back().last_hour, 2);

  EXPECT_FALSE(store_->Enqueue(NewSubmission{9999, "p", "a.cu", "x"}, at_most_two_in_flight).ok());
}

TEST_P(StoreTest, ClaimTakesTheOldestJobOnceWithItsBytes) {
  const Principal alice = User("alice");
  const std::string binary("\0\x01\xff\xfe\"'\\ source", 14);
  const int64_t first = Post(alice, "p1", binary), second = Post(alice, "p2"), third = Post(alice, "p3");
  EXPECT_LT(first, second);

  auto a = Ok(store_->Claim("w1", 60));
  auto b = Ok(store_->Claim("w2", 60));
  auto c = Ok(store_->Claim("w1", 60));
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->submission_id, first);
  EXPECT_EQ(b->submission_id, second);
  EXPECT_EQ(c->submission_id, third);
  EXPECT_EQ(a->problem, "p1");
  EXPECT_EQ(a->filename, "solution.cu");
  EXPECT_EQ(a->source, binary);
  EXPECT_EQ(Ok(store_->Source(first)), binary);
  EXPECT_NE(a->lease, b->lease);
  EXPECT_FALSE(Ok(store_->Claim("w3", 60))) << "every job is held";

  const Submission s = Fetch(first);
  EXPECT_EQ(s.status, SubmissionStatus::kCompiling);
  EXPECT_EQ(s.attempts, 1);
  EXPECT_GT(s.started_ms, 0);
  EXPECT_EQ(s.owner_name, "alice");
}

TEST_P(StoreTest, ClaimOnAnEmptyQueueIsNothing) {
  EXPECT_FALSE(Ok(store_->Claim("w", 60)));
  EXPECT_FALSE(Ok(store_->Get(1)));
  EXPECT_FALSE(Ok(store_->Source(1)));
}

TEST_P(StoreTest, AnExpiredLeaseGoesToAnotherGraderAndTheFirstIsRefused) {
  const int64_t id = Post(User("alice"), "p");
  auto first = Ok(store_->Claim("dead-host", 0.5));
  ASSERT_TRUE(first);
  EXPECT_FALSE(Ok(store_->Claim("live-host", 60))) << "held until the lease runs out";
  Sleep(0.8);
  auto second = Ok(store_->Claim("live-host", 60));
  ASSERT_TRUE(second);
  EXPECT_EQ(second->submission_id, id);
  EXPECT_NE(second->lease, first->lease);
  EXPECT_EQ(Fetch(id).attempts, 2);

  EXPECT_FALSE(Ok(store_->SetStage(id, first->lease, SubmissionStatus::kRunning, "case 1/3")));
  EXPECT_FALSE(Ok(store_->Finish(id, first->lease, Accepted(1))));
  EXPECT_TRUE(Ok(store_->SetStage(id, second->lease, SubmissionStatus::kRunning, "case 2/3")));
  Submission s = Fetch(id);
  EXPECT_EQ(s.status, SubmissionStatus::kRunning);
  EXPECT_EQ(s.progress, "case 2/3");
  EXPECT_TRUE(Ok(store_->Finish(id, second->lease, Accepted(2))));
  EXPECT_EQ(Fetch(id).figure_ms, 2);
}

TEST_P(StoreTest, HeartbeatKeepsALeaseAlive) {
  Post(User("alice"), "p");
  auto job = Ok(store_->Claim("w1", 1.0));
  ASSERT_TRUE(job);
  Sleep(0.6);
  ASSERT_TRUE(store_->Heartbeat("w1", {job->lease}, 1.0).ok());
  Sleep(0.6);  // past the first lease's end, within the extended one
  EXPECT_FALSE(Ok(store_->Claim("w2", 60)));
  Sleep(0.7);
  EXPECT_TRUE(Ok(store_->Claim("w2", 60))) << "without further heartbeats it runs out";
}

TEST_P(StoreTest, HeartbeatExtendsOnlyTheLeasesNamed) {
  const Principal alice = User("alice");
  const int64_t kept = Post(alice, "p");
  const int64_t dropped = Post(alice, "p");
  auto first = Ok(store_->Claim("w1", 1.0));
  auto second = Ok(store_->Claim("w1", 1.0));
  ASSERT_TRUE(first && second);
  ASSERT_EQ(first->submission_id, kept);
  Sleep(0.6);
  ASSERT_TRUE(store_->Heartbeat("w1", {first->lease}, 1.0).ok());
  Sleep(0.6);
  auto other = Ok(store_->Claim("w2", 60));
  ASSERT_TRUE(other) << "the job w1 no longer names runs out";
  EXPECT_EQ(other->submission_id, dropped);
  EXPECT_FALSE(Ok(store_->Claim("w2", 60))) << "the one it names stays w1's";
}

TEST_P(StoreTest, FinishRecordsOneResultOnce) {
  const int64_t id = Post(User("alice"), "p");
  auto job = Ok(store_->Claim("w", 60));
  ASSERT_TRUE(job);
  const Result result{"WA", -1, false, R"({"version":1,"cases":[]})"};
  EXPECT_TRUE(Ok(store_->Finish(id, job->lease, result)));
  EXPECT_FALSE(Ok(store_->Finish(id, job->lease, Accepted(1)))) << "a second Finish";
  EXPECT_FALSE(Ok(store_->SetStage(id, job->lease, SubmissionStatus::kRunning, "x")));
  EXPECT_EQ(Ok(store_->ResultCounts()), (std::vector<std::pair<int64_t, int>>{{id, 1}}));

  const Submission s = Fetch(id);
  EXPECT_EQ(s.status, SubmissionStatus::kDone);
  EXPECT_EQ(s.verdict, "WA");
  EXPECT_EQ(s.figure_ms, -1);
  EXPECT_EQ(s.report_json, result.report_json);
  EXPECT_GE(s.finished_ms, s.started_ms);
  EXPECT_FALSE(Ok(store_->Claim("w", 60))) << "a done job is not claimable";
  EXPECT_FALSE(store_->SetStage(id, job->lease, SubmissionStatus::kDone, "").ok()) << "only Finish marks done";
}

TEST_P(StoreTest, ReleaseAllRequeuesOnlyThatWorkersJobs) {
  const Principal alice = User("alice");
  const int64_t a = Post(alice, "p"), b = Post(alice, "p"), c = Post(alice, "p");
  auto ja = Ok(store_->Claim("restarted", 60));
  Ok(store_->Claim("other", 60));
  auto jc = Ok(store_->Claim("restarted", 60));
  ASSERT_TRUE(jc && ja);
  EXPECT_TRUE(Ok(store_->Finish(c, jc->lease, Accepted(1))));
  EXPECT_EQ(Ok(store_->ReleaseAll("restarted")), 1) << "the done job stays done";
  EXPECT_EQ(Fetch(a).status, SubmissionStatus::kQueued);
  EXPECT_EQ(Fetch(b).status, SubmissionStatus::kCompiling);
  EXPECT_FALSE(Ok(store_->Finish(a, ja->lease, Accepted(1))));
  auto again = Ok(store_->Claim("restarted", 60));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->submission_id, a);
}

TEST_P(StoreTest, RejudgeStartsANewGenerationAndRefusesTheOldLease) {
  const Principal alice = User("alice");
  const int64_t id = Post(alice, "p");
  EXPECT_EQ(Grade(Accepted(3)), id);
  EXPECT_TRUE(Ok(store_->Rejudge(id)));
  EXPECT_FALSE(Ok(store_->Rejudge(id + 100)));
  Submission s = Fetch(id);
  EXPECT_EQ(s.status, SubmissionStatus::kQueued);
  EXPECT_EQ(s.generation, 1);
  EXPECT_EQ(s.attempts, 0);
  EXPECT_EQ(s.verdict, "");
  EXPECT_EQ(s.figure_ms, -1);

  // Rejudged while graded: the grader's lease is void, the next claim is generation 2.
  auto held = Ok(store_->Claim("w1", 60));
  ASSERT_TRUE(held);
  EXPECT_EQ(held->generation, 1);
  EXPECT_TRUE(Ok(store_->Rejudge(id)));
  EXPECT_FALSE(Ok(store_->SetStage(id, held->lease, SubmissionStatus::kRunning, "case 1/2")));
  EXPECT_FALSE(Ok(store_->Finish(id, held->lease, Accepted(9))));
  auto fresh = Ok(store_->Claim("w2", 60));
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->generation, 2);
  EXPECT_TRUE(Ok(store_->Finish(id, fresh->lease, Accepted(2))));
  EXPECT_EQ(Ok(store_->ResultCounts()), (std::vector<std::pair<int64_t, int>>{{id, 2}})) << "generations 0 and 2";
  EXPECT_EQ(Fetch(id).figure_ms, 2);
}

TEST_P(StoreTest, RejudgeProblemRequeuesThatProblemOnly) {
  const Principal alice = User("alice");
  const int64_t p1 = Post(alice, "p"), q = Post(alice, "q"), p2 = Post(alice, "p");
  for (int i = 0; i < 3; ++i) Grade(Accepted(1));
  EXPECT_EQ(Ok(store_->RejudgeProblem("p")), 2);
  EXPECT_EQ(Ok(store_->RejudgeProblem("nothing")), 0);
  EXPECT_EQ(Fetch(p1).status, SubmissionStatus::kQueued);
  EXPECT_EQ(Fetch(p2).generation, 1);
  EXPECT_EQ(Fetch(q).status, SubmissionStatus::kDone);
  EXPECT_EQ(Fetch(q).generation, 0);
}

TEST_P(StoreTest, BestIsEachPrincipalsFastestAcceptedUnflaggedResult) {
  const Principal alice = User("alice"), bob = User("bob"), carol = User("carol"), dave = User("dave");
  struct Case {
    const Principal* who;
    std::string problem;
    Result result;
  };
  const std::vector<Case> cases = {
      {&alice, "p", Accepted(5)},
      {&alice, "p", Accepted(3)},
      {&alice, "p", Accepted(2, /*flagged=*/true)},
      {&alice, "p", Result{"WA", 1, false, "{}"}},
      {&alice, "q", Accepted(0.5)},
      {&bob, "p", Accepted(4)},
      {&carol, "p", Result{"TLE", -1, false, "{}"}},
      {&dave, "p", Accepted(-1)},  // accepted without a performance case: nothing to rank
  };
  std::vector<int64_t> ids;
  for (const Case& c : cases) {
    ids.push_back(Post(*c.who, c.problem));
    EXPECT_EQ(Grade(c.result), ids.back());
  }
  const auto best = Ok(store_->Best("p"));
  ASSERT_EQ(best.size(), 2u);
  EXPECT_EQ(best[0].who.name, "alice");
  EXPECT_EQ(best[0].submission_id, ids[1]);
  EXPECT_EQ(best[0].figure_ms, 3);
  EXPECT_GT(best[0].finished_ms, 0);
  EXPECT_EQ(best[1].who.name, "bob");
  EXPECT_EQ(best[1].who.alias, "bob A.");
  EXPECT_EQ(best[1].figure_ms, 4);
  EXPECT_TRUE(Ok(store_->Best("none")).empty());
}

TEST_P(StoreTest, ListFiltersByOwnerAndProblemNewestFirst) {
  const Principal alice = User("alice"), bob = User("bob");
  const int64_t a1 = Post(alice, "p"), a2 = Post(alice, "q"), b1 = Post(bob, "p");
  Grade(Accepted(1));
  auto ids = [&](SubmissionQuery q) {
    std::vector<int64_t> out;
    for (const Submission& s : Ok(store_->List(q))) out.push_back(s.id);
    return out;
  };
  EXPECT_EQ(ids(Query({}, {})), (std::vector<int64_t>{b1, a2, a1}));
  EXPECT_EQ(ids(Query(alice.id, {})), (std::vector<int64_t>{a2, a1}));
  EXPECT_EQ(ids(Query({}, "p")), (std::vector<int64_t>{b1, a1}));
  EXPECT_EQ(ids(Query(bob.id, "q")), std::vector<int64_t>{});
  EXPECT_EQ(ids(Query({}, {}, 1)), std::vector<int64_t>{b1});
  const auto listed = Ok(store_->List(Query(alice.id, {})));
  EXPECT_EQ(listed[1].owner_name, "alice");
  EXPECT_EQ(listed[1].verdict, "AC");
  EXPECT_EQ(listed[1].report_json, "") << "lists leave the report out";
  EXPECT_EQ(listed[0].status, SubmissionStatus::kQueued);
}

// Eight graders, each with a store (connections) of its own, drain one queue: no job twice, none
// lost, one result each.
TEST_P(StoreTest, ConcurrentGradersClaimEveryJobExactlyOnce) {
  constexpr int kJobs = 200, kGraders = 8;
  const Principal alice = User("alice");
  for (int i = 0; i < kJobs; ++i) Post(alice, "p");
  std::vector<std::vector<int64_t>> claimed(kGraders);
  std::vector<std::string> errors(kGraders);
  std::vector<std::thread> threads;
  for (int g = 0; g < kGraders; ++g) {
    threads.emplace_back([&, g] {
      try {
        auto store = Open();
        const std::string worker = "grader-" + std::to_string(g);
        while (auto job = Ok(store->Claim(worker, 60))) {
          claimed[g].push_back(job->submission_id);
          if (!Ok(store->Finish(job->submission_id, job->lease, Accepted(1)))) errors[g] = "a Finish was refused";
        }
      } catch (const std::exception& e) {
        errors[g] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  std::map<int64_t, int> times;
  for (const auto& ids : claimed) {
    for (int64_t id : ids) ++times[id];
  }
  EXPECT_EQ(times.size(), static_cast<size_t>(kJobs));
  for (const auto& [id, n] : times) EXPECT_EQ(n, 1) << "job " << id;
  const auto counts = Ok(store_->ResultCounts());
  EXPECT_EQ(counts.size(), static_cast<size_t>(kJobs));
  EXPECT_TRUE(std::all_of(counts.begin(), counts.end(), [](auto& c) { return c.second == 1; }));
}

// Posts racing from stores of their own (as from two service hosts): the limit holds, because
// each reads the usage in the transaction that inserts.
TEST_P(StoreTest, ConcurrentPostsCannotPassALimitTogether) {
  constexpr int kPosters = 8, kLimit = 3;
  const Principal alice = User("alice");
  std::vector<std::unique_ptr<Store>> stores;
  for (int i = 0; i < kPosters; ++i) stores.push_back(Open());
  std::atomic<int> admitted = 0, refused = 0;
  std::vector<std::thread> threads;
  for (int i = 0; i < kPosters; ++i) {
    threads.emplace_back([&, i] {
      auto id = stores[i]->Enqueue(NewSubmission{alice.id, "p", "a.cu", "x"}, [](const Usage& u) -> Status {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // widen the window a race would need
        if (u.in_flight >= kLimit) return MakeError(ErrorCode::kUsage, "limit");
        return Status::Ok();
      });
      ++(id.ok() ? admitted : refused);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(admitted, kLimit);
  EXPECT_EQ(refused, kPosters - kLimit);
  EXPECT_EQ(Ok(store_->List({})).size(), static_cast<size_t>(kLimit));
}

// A process killed right after Enqueue returned: the id it was given names a stored row.
TEST_P(StoreTest, AnEnqueuedRowSurvivesTheProcessBeingKilled) {
  const Principal alice = User("alice");
  store_.reset();  // nothing of this process's database state is shared with the child
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(pipe_fds[0]);
    auto store = OpenStore(dir_, url_);
    if (!store.ok()) ::_exit(2);
    auto id =
        (*store)->Enqueue(NewSubmission{alice.id, "p", "k.cu", "kill me"}, [](const Usage&) { return Status::Ok(); });
    if (!id.ok()) ::_exit(3);
    const int64_t value = *id;
    if (::write(pipe_fds[1], &value, sizeof value) != sizeof value) ::_exit(4);
    ::raise(SIGKILL);
  }
  ::close(pipe_fds[1]);
  int64_t id = 0;
  const ssize_t got = ::read(pipe_fds[0], &id, sizeof id);
  ::close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "child status " << status;
  ASSERT_EQ(got, static_cast<ssize_t>(sizeof id));

  store_ = Open();
  EXPECT_EQ(Fetch(id).status, SubmissionStatus::kQueued);
  EXPECT_EQ(Ok(store_->Source(id)), "kill me");
}

TEST_P(StoreTest, ASchemaOfAnotherVersionIsRefused) {
  store_.reset();
  auto raw = GetParam() == Db::kSqlite ? sql::OpenSqlite(dir_ + "/judge.db") : sql::OpenPostgres(url_);
  ASSERT_TRUE(raw.ok()) << raw.error().message;
  ASSERT_TRUE((*raw)->Exec("UPDATE schema_version SET version = 99").ok());
  auto reopened = OpenStore(dir_, url_);
  ASSERT_FALSE(reopened.ok());
  EXPECT_NE(reopened.error().message.find("schema version 99"), std::string::npos) << reopened.error().message;
}

INSTANTIATE_TEST_SUITE_P(Databases, StoreTest, ::testing::Values(Db::kSqlite, Db::kPostgres),
                         [](const auto& info) { return std::string(DbName(info.param)); });

TEST(OpenStore, MakesAPrivateDataFolder) {
  char templ[] = "/tmp/judge-store-XXXXXX";
  ASSERT_NE(::mkdtemp(templ), nullptr);
  const std::string dir = std::string(templ) + "/a/b";
  Ok(OpenStore(dir, ""));
  struct stat st {};
  ASSERT_EQ(::stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_TRUE(std::filesystem::exists(dir + "/judge.db"));
  std::filesystem::remove_all(templ);
}

TEST(OpenStore, ErrorsNameTheFolderOrTheServerButNoPassword) {
  auto in_a_file = OpenStore("/dev/null/data", "");
  ASSERT_FALSE(in_a_file.ok());
  EXPECT_NE(in_a_file.error().message.find("/dev/null/data"), std::string::npos) << in_a_file.error().message;

  auto unreachable = OpenStore("", "host=/nonexistent-judge-socket port=1 user=judge password=hunter2 dbname=judge");
  ASSERT_FALSE(unreachable.ok());
  const std::string& message = unreachable.error().message;
  EXPECT_NE(message.find("/nonexistent-judge-socket"), std::string::npos) << message;
  EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
}

TEST(RedactConninfo, HidesPasswordsInBothForms) {
  EXPECT_EQ(sql::RedactConninfo("host=h password=secret dbname=d"), "host=h password=*** dbname=d");
  EXPECT_EQ(sql::RedactConninfo("host=h password = 'a b' dbname=d"), "host=h password = *** dbname=d");
  EXPECT_EQ(sql::RedactConninfo("postgresql://judge:secret@db.example/judge"),
            "postgresql://judge:***@db.example/judge");
  EXPECT_EQ(sql::RedactConninfo("postgresql://judge@db.example/judge"), "postgresql://judge@db.example/judge");
}

TEST(SubmissionStatus, NamesRoundTrip) {
  for (auto status :
       {SubmissionStatus::kQueued, SubmissionStatus::kCompiling, SubmissionStatus::kRunning, SubmissionStatus::kDone}) {
    EXPECT_EQ(ParseStatus(StatusName(status)), status);
  }
  EXPECT_EQ(StatusName(SubmissionStatus::kRunning), "running");
  EXPECT_FALSE(ParseStatus("Done"));
}

}  // namespace
}  // namespace judge::serve

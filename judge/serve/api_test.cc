// SPDX-License-Identifier: MIT
// The API's rules through Api::Handle, on a real SQLite store in a temporary folder: who may read
// what, every error's status and code, the limits, and the JSON a finished submission shows.
#include "judge/serve/api.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <set>
#include <stdexcept>

#include "judge/serve/limits.h"
#include "judge/serve/tokens.h"

namespace judge::serve {
namespace {

template <typename T>
T Ok(Expected<T> e) {
  if (!e.ok()) throw std::runtime_error("error: " + e.error().message);
  return std::move(*e);
}

const char kSource[] = "extern \"C\" void solve(const float* in, float* out, int n) {}\n";

class ApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char templ[] = "/tmp/judge-api-XXXXXX";
    ASSERT_NE(::mkdtemp(templ), nullptr);
    temp_ = templ;
    store_ = Ok(OpenStore(temp_ + "/data", ""));
    alice_ = Ok(store_->AddToken("alice", "Team Rocket", false, HashToken("tok-alice")));
    bob_ = Ok(store_->AddToken("bob", "", false, HashToken("tok-bob")));
    Ok(store_->AddToken("teacher", "", true, HashToken("tok-teacher")));
    MakeApi(Limits{});
  }
  void TearDown() override {
    api_.reset();
    store_.reset();
    std::filesystem::remove_all(temp_);
  }
  void MakeApi(Limits limits) {
    ApiConfig config;
    config.problems = {
        {"reduction", "Reduction", "# Reduction\nSum it.", "void solve(const float* input, float* output, int N)"},
        {"vector_add", "Vector add", "# Add", "void solve(const float* a, const float* b, float* c, int N)"}};
    config.limits = limits;
    config.wake = [this] { ++wakes_; };
    config.render = [](const std::string& format, const std::string&,
                       const std::string& json) -> Expected<std::string> {
      return "<" + format + ">" + std::to_string(json.size()) + "</" + format + ">";
    };
    api_ = std::make_unique<Api>(*store_, std::move(config));
  }

  HttpResponse Call(const std::string& method, const std::string& path, const std::string& token = "",
                    std::map<std::string, std::string> query = {}) {
    HttpRequest request;
    request.method = method;
    request.path = path;
    request.query = std::move(query);
    if (!token.empty()) request.headers["authorization"] = "Bearer " + token;
    return api_->Handle(request);
  }
  HttpResponse Post(const std::string& token, std::vector<FormPart> parts) {
    HttpRequest request;
    request.method = "POST";
    request.path = "/api/submissions";
    request.headers["authorization"] = "Bearer " + token;
    request.multipart = true;
    request.parts = std::move(parts);
    return api_->Handle(request);
  }
  HttpResponse Submit(const std::string& token, const std::string& problem = "reduction",
                      const std::string& source = kSource, const std::string& filename = "k.cu") {
    return Post(token, {{"problem", "", "", problem}, {"source", filename, "text/plain", source}});
  }
  int64_t SubmitOk(const std::string& token) {
    HttpResponse r = Submit(token);
    EXPECT_EQ(r.status, 202) << r.body;
    return Json::parse(r.body).at("id").get<int64_t>();
  }
  // Grades the oldest queued submission with `result`.
  void Grade(const Result& result) {
    auto job = Ok(store_->Claim("test", 60));
    ASSERT_TRUE(job.has_value());
    ASSERT_TRUE(Ok(store_->Finish(job->submission_id, job->lease, result)));
  }
  static Json Body(const HttpResponse& r) { return Json::parse(r.body); }
  static std::string Code(const HttpResponse& r) { return Body(r).at("error").at("code").get<std::string>(); }

  std::string temp_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Api> api_;
  Principal alice_, bob_;
  int wakes_ = 0;
};

TEST(ErrorTable, EachErrorHasItsStatusAndAStableDistinctCode) {
  const std::map<ApiError, std::pair<int, std::string>> expected = {
      {ApiError::kUnauthorized, {401, "unauthorized"}},
      {ApiError::kForbidden, {403, "forbidden"}},
      {ApiError::kNotFound, {404, "not_found"}},
      {ApiError::kUnknownProblem, {422, "unknown_problem"}},
      {ApiError::kEmptySource, {422, "empty_source"}},
      {ApiError::kSourceTooLarge, {413, "source_too_large"}},
      {ApiError::kBodyTooLarge, {413, "body_too_large"}},
      {ApiError::kMalformedMultipart, {400, "malformed_multipart"}},
      {ApiError::kBadRequest, {400, "bad_request"}},
      {ApiError::kRateLimited, {429, "rate_limited"}},
      {ApiError::kMethodNotAllowed, {405, "method_not_allowed"}},
      {ApiError::kInternal, {500, "internal"}},
  };
  for (const auto& [error, row] : expected) {
    EXPECT_EQ(HttpStatusOf(error), row.first) << row.second;
    EXPECT_EQ(ErrorCodeName(error), row.second);
    HttpResponse r = ErrorResponse(error, "why");
    EXPECT_EQ(r.status, row.first);
    EXPECT_EQ(Json::parse(r.body), (Json{{"error", {{"code", row.second}, {"message", "why"}}}}));
  }
  HttpResponse limited = ErrorResponse(ApiError::kRateLimited, "slow down", 30);
  EXPECT_EQ(limited.headers, (std::vector<std::pair<std::string, std::string>>{{"Retry-After", "30"}}));
}

TEST(Limits, AdmitNamesTheLimitAndWhenToRetry) {
  Limits limits;  // 4 in flight, 60 an hour
  EXPECT_TRUE(Admit({3, 59}, limits).ok());
  Status busy = Admit({4, 10}, limits);
  ASSERT_FALSE(busy.ok());
  EXPECT_NE(busy.error().message.find("4 submissions in flight"), std::string::npos) << busy.error().message;
  EXPECT_NE(busy.error().message.find("retry when one is done"), std::string::npos);
  EXPECT_EQ(RetryAfterSeconds({4, 10}, limits), 30);
  Status hourly = Admit({4, 60}, limits);  // both reached: the hour is what the sender must wait for
  ASSERT_FALSE(hourly.ok());
  EXPECT_NE(hourly.error().message.find("60 submissions per hour"), std::string::npos) << hourly.error().message;
  EXPECT_EQ(RetryAfterSeconds({4, 60}, limits), 300);
  EXPECT_EQ(RetryAfterSeconds({0, 0}, limits), 0);
}

TEST(IsoTime, IsUtcWithMilliseconds) {
  EXPECT_EQ(IsoTime(0), "");
  EXPECT_EQ(IsoTime(1700000000123), "2023-11-14T22:13:20.123Z");
}

TEST_F(ApiTest, PublicRoutesNeedNoToken) {
  HttpResponse page = Call("GET", "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
  EXPECT_NE(page.body.find("id=\"submissions\""), std::string::npos);
  EXPECT_EQ(Body(Call("GET", "/api/health")), (Json{{"ok", true}}));
  Json problems = Body(Call("GET", "/api/problems"));
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0], (Json{{"name", "reduction"},
                               {"title", "Reduction"},
                               {"statement", "# Reduction\nSum it."},
                               {"signature", "void solve(const float* input, float* output, int N)"}}));
  EXPECT_EQ(Body(Call("GET", "/api/problems/vector_add")).at("title"), "Vector add");
  EXPECT_EQ(Code(Call("GET", "/api/problems/nope")), "not_found");
  EXPECT_EQ(Body(Call("GET", "/api/leaderboard/reduction")),
            (Json{{"problem", "reduction"}, {"entries", Json::array()}}));
  EXPECT_EQ(Code(Call("GET", "/api/leaderboard/nope")), "not_found");
}

TEST_F(ApiTest, EveryTokenRouteAnswers401WithoutAValidToken) {
  for (const auto& [method, path] :
       std::vector<std::pair<std::string, std::string>>{{"POST", "/api/submissions"},
                                                        {"GET", "/api/submissions"},
                                                        {"GET", "/api/submissions/1"},
                                                        {"GET", "/api/submissions/1/report.html"},
                                                        {"GET", "/api/me"},
                                                        {"POST", "/api/admin/rejudge/1"}}) {
    for (const std::string token : {"", "tok-nobody"}) {
      HttpResponse r = Call(method, path, token);
      EXPECT_EQ(r.status, 401) << method << " " << path << " " << token;
      EXPECT_EQ(Code(r), "unauthorized");
    }
  }
  EXPECT_EQ(Body(Call("GET", "/api/me", "tok-alice")),
            (Json{{"name", "alice"}, {"alias", "Team Rocket"}, {"admin", false}}));
  ASSERT_TRUE(Ok(store_->RevokeToken("alice")));
  EXPECT_EQ(Call("GET", "/api/me", "tok-alice").status, 401);
}

TEST_F(ApiTest, ASubmissionIsQueuedAndOnlyItsOwnerOrAnAdminReadsIt) {
  HttpResponse r = Submit("tok-alice", "reduction", kSource, "../../etc/my kernel.cu");
  ASSERT_EQ(r.status, 202) << r.body;
  EXPECT_EQ(Body(r).at("status"), "queued");
  EXPECT_EQ(wakes_, 1);
  const int64_t id = Body(r).at("id").get<int64_t>();
  const std::string path = "/api/submissions/" + std::to_string(id);
  Json mine = Body(Call("GET", path, "tok-alice"));
  EXPECT_EQ(mine.at("status"), "queued");
  EXPECT_EQ(mine.at("problem"), "reduction");
  EXPECT_EQ(mine.at("filename"), "my kernel.cu");  // display only: no folders kept
  EXPECT_EQ(mine.at("finished"), nullptr);
  EXPECT_FALSE(mine.contains("verdict"));
  EXPECT_EQ(Ok(store_->Source(id)).value_or(""), kSource);
  EXPECT_EQ(Code(Call("GET", path, "tok-bob")), "forbidden");
  EXPECT_EQ(Call("GET", path, "tok-teacher").status, 200);
  EXPECT_EQ(Code(Call("GET", "/api/submissions/999", "tok-alice")), "not_found");
  EXPECT_EQ(Code(Call("GET", "/api/submissions/-1", "tok-alice")), "not_found");
  EXPECT_EQ(Code(Call("GET", "/api/submissions/1e3", "tok-alice")), "not_found");
  EXPECT_EQ(Code(Call("GET", path + "/report.html", "tok-alice")), "not_found");  // not graded yet
}

TEST_F(ApiTest, ASourceFromAPlainFieldTakesTheFilenameField) {
  HttpResponse r = Post(
      "tok-bob", {{"problem", "", "", "reduction"}, {"source", "", "", kSource}, {"filename", "", "", "pasted.cu"}});
  ASSERT_EQ(r.status, 202) << r.body;
  EXPECT_EQ(Body(Call("GET", "/api/submissions/" + std::to_string(Body(r).at("id").get<int64_t>()), "tok-bob"))
                .at("filename"),
            "pasted.cu");
}

TEST_F(ApiTest, BadSubmissionsAreRefusedWithTheirCode) {
  EXPECT_EQ(Code(Submit("tok-alice", "no_such_problem")), "unknown_problem");
  EXPECT_EQ(Code(Submit("tok-alice", "../reduction")), "unknown_problem");
  EXPECT_EQ(Code(Submit("tok-alice", "reduction", "")), "empty_source");
  EXPECT_EQ(Code(Submit("tok-alice", "reduction", " \n\t\n")), "empty_source");
  HttpResponse big = Submit("tok-alice", "reduction", std::string(Limits{}.max_source_bytes + 1, 'x'));
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(Code(big), "source_too_large");
  EXPECT_EQ(Code(Submit("tok-alice", "reduction", std::string("int x;\0", 7))), "bad_request");
  EXPECT_EQ(Code(Submit("tok-alice", "reduction", "int \xff;")), "bad_request");
  EXPECT_EQ(Code(Post("tok-alice", {{"source", "k.cu", "", kSource}})), "bad_request");
  EXPECT_EQ(Code(Post("tok-alice", {{"problem", "", "", "reduction"}})), "bad_request");
  HttpRequest json;
  json.method = "POST";
  json.path = "/api/submissions";
  json.headers["authorization"] = "Bearer tok-alice";
  json.body = R"({"problem": "reduction"})";
  EXPECT_EQ(Code(api_->Handle(json)), "bad_request");
  json.body = std::string(Limits{}.max_body_bytes + 1, '{');
  HttpResponse huge = api_->Handle(json);
  EXPECT_EQ(huge.status, 413);
  EXPECT_EQ(Code(huge), "body_too_large");
  EXPECT_EQ(wakes_, 0);
  EXPECT_TRUE(Ok(store_->List({})).empty());
}

TEST_F(ApiTest, LimitsPerTokenAnswer429WithRetryAfter) {
  Limits limits;
  limits.max_in_flight = 2;
  limits.max_per_hour = 3;
  MakeApi(limits);
  SubmitOk("tok-alice");
  SubmitOk("tok-alice");
  HttpResponse busy = Submit("tok-alice");
  EXPECT_EQ(busy.status, 429);
  EXPECT_EQ(Code(busy), "rate_limited");
  EXPECT_NE(Body(busy)["error"]["message"].get<std::string>().find("in flight"), std::string::npos);
  EXPECT_EQ(busy.headers.front(), (std::pair<std::string, std::string>{"Retry-After", "30"}));
  SubmitOk("tok-bob");  // a limit is per token
  Grade({"AC", 1.0, false, "{}"});
  SubmitOk("tok-alice");  // one done: room in flight again
  Grade({"AC", 1.0, false, "{}"});
  Grade({"AC", 1.0, false, "{}"});
  HttpResponse hourly = Submit("tok-alice");
  EXPECT_EQ(Code(hourly), "rate_limited");
  EXPECT_NE(Body(hourly)["error"]["message"].get<std::string>().find("per hour"), std::string::npos);
}

TEST_F(ApiTest, ADoneSubmissionShowsItsVerdictReportAndLeaderboardPlace) {
  const int64_t a = SubmitOk("tok-alice");
  const int64_t b = SubmitOk("tok-bob");
  const std::string report = R"({"schema": "gpu-judge.report", "verdict": "AC"})";
  Grade({"AC", 2.5, false, report});
  Grade({"AC", 1.25, false, report});
  Json done = Body(Call("GET", "/api/submissions/" + std::to_string(a), "tok-alice"));
  EXPECT_EQ(done.at("status"), "done");
  EXPECT_EQ(done.at("verdict"), "AC");
  EXPECT_EQ(done.at("figure_ms"), 2.5);
  EXPECT_EQ(done.at("flagged"), false);
  EXPECT_EQ(done.at("report"), Json::parse(report));
  EXPECT_EQ(done.at("attempts"), 1);
  EXPECT_TRUE(done.at("finished").is_string());
  HttpResponse html = Call("GET", "/api/submissions/" + std::to_string(a) + "/report.html", "tok-alice");
  EXPECT_EQ(html.status, 200);
  EXPECT_EQ(html.body, "<html>" + std::to_string(report.size()) + "</html>");
  EXPECT_EQ(Code(Call("GET", "/api/submissions/" + std::to_string(a) + "/report.html", "tok-bob")), "forbidden");
  Json board = Body(Call("GET", "/api/leaderboard/reduction"));
  ASSERT_EQ(board.at("entries").size(), 2u);
  // Aliases only; a token without one is a number, never its name (a student's login).
  EXPECT_EQ(board["entries"][0].at("alias").get<std::string>().rfind("student ", 0), 0u);
  EXPECT_EQ(board.dump().find("bob"), std::string::npos);
  EXPECT_EQ(board["entries"][0].at("figure_ms"), 1.25);
  EXPECT_EQ(board["entries"][1].at("alias"), "Team Rocket");
  EXPECT_EQ(board["entries"][1].at("rank"), 2);
  EXPECT_EQ(board.dump().find("alice"), std::string::npos);
  (void)b;
}

TEST_F(ApiTest, ListsAreOwnNewestFirstAndAllOnlyForAnAdmin) {
  const int64_t a1 = SubmitOk("tok-alice");
  const int64_t b1 = SubmitOk("tok-bob");
  const int64_t a2 = SubmitOk("tok-alice");
  auto ids = [](const HttpResponse& r) {
    std::vector<int64_t> out;
    for (const auto& s : Json::parse(r.body)) out.push_back(s.at("id").get<int64_t>());
    return out;
  };
  EXPECT_EQ(ids(Call("GET", "/api/submissions", "tok-alice")), (std::vector<int64_t>{a2, a1}));
  EXPECT_EQ(ids(Call("GET", "/api/submissions", "tok-alice", {{"limit", "1"}})), (std::vector<int64_t>{a2}));
  EXPECT_EQ(Code(Call("GET", "/api/submissions", "tok-alice", {{"limit", "0"}})), "bad_request");
  EXPECT_EQ(Code(Call("GET", "/api/submissions", "tok-alice", {{"all", ""}})), "forbidden");
  EXPECT_EQ(Code(Call("GET", "/api/submissions", "tok-alice", {{"owner", "bob"}})), "forbidden");
  EXPECT_EQ(ids(Call("GET", "/api/submissions", "tok-teacher", {{"all", ""}})), (std::vector<int64_t>{a2, b1, a1}));
  EXPECT_EQ(ids(Call("GET", "/api/submissions", "tok-teacher", {{"owner", "bob"}})), (std::vector<int64_t>{b1}));
  EXPECT_EQ(ids(Call("GET", "/api/submissions", "tok-teacher", {{"all", ""}, {"problem", "vector_add"}})),
            (std::vector<int64_t>{}));
  EXPECT_EQ(Code(Call("GET", "/api/submissions", "tok-teacher", {{"owner", "nobody"}})), "not_found");
  EXPECT_EQ(Code(Call("GET", "/api/submissions", "tok-teacher", {{"problem", "nope"}})), "unknown_problem");
}

TEST_F(ApiTest, AnAdminRejudgesASubmissionOrAProblem) {
  const int64_t a = SubmitOk("tok-alice");
  SubmitOk("tok-bob");
  Grade({"WA", -1, false, "{}"});
  Grade({"AC", 1, false, "{}"});
  const std::string path = "/api/admin/rejudge/" + std::to_string(a);
  EXPECT_EQ(Code(Call("POST", path, "tok-alice")), "forbidden");
  const int wakes = wakes_;
  HttpResponse r = Call("POST", path, "tok-teacher");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(wakes_, wakes + 1);
  Json again = Body(Call("GET", "/api/submissions/" + std::to_string(a), "tok-alice"));
  EXPECT_EQ(again.at("status"), "queued");
  EXPECT_EQ(again.at("generation"), 1);
  EXPECT_EQ(Code(Call("POST", "/api/admin/rejudge/999", "tok-teacher")), "not_found");
  EXPECT_EQ(Body(Call("POST", "/api/admin/rejudge-problem/reduction", "tok-teacher")).at("requeued"), 2);
  EXPECT_EQ(Code(Call("POST", "/api/admin/rejudge-problem/nope", "tok-teacher")), "not_found");
  EXPECT_EQ(Code(Call("GET", path, "tok-teacher")), "method_not_allowed");
}

TEST_F(ApiTest, UnknownRoutesAndMethodsAreJsonErrors) {
  HttpResponse wrong = Call("DELETE", "/api/submissions", "tok-alice");
  EXPECT_EQ(wrong.status, 405);
  EXPECT_EQ(Code(wrong), "method_not_allowed");
  bool allow = false;
  for (const auto& [key, value] : wrong.headers) allow |= key == "Allow" && value == "POST, GET";
  EXPECT_TRUE(allow);
  for (const std::string& path : std::vector<std::string>{
           "/api/submissions/../../etc/passwd", "/etc/passwd", "/api/problems/../../etc/passwd", "/api", "/api/",
           "/api/problems/", "//", "", "/index.html", std::string("/api/problems/reduction\0.json", 29),
           "/api/submissions/1/report.html/x"}) {
    HttpResponse r = Call("GET", path, "tok-alice");
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(Code(r), "not_found") << path;
  }
}

}  // namespace
}  // namespace judge::serve

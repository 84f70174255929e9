// SPDX-License-Identifier: MIT
#pragma once
// The HTTP API of `judge serve`, its whole wire protocol in one module: routes, authentication,
// the JSON of every answer and the one table of errors. It knows nothing of the HTTP library:
// http_server.cc turns a parsed request into an HttpRequest and the HttpResponse back, so every
// rule here is tested by calling Api::Handle (api_test.cc).
//
// Routes (JSON unless said; TOKEN: header "Authorization: Bearer TOKEN"):
//   GET  /                                   the web page (HTML)
//   GET  /api/health                         {"ok": true}
//   GET  /api/me                      TOKEN  {"name", "alias", "admin"}
//   GET  /api/problems                       [{"name", "title", "statement", "signature"}]
//   GET  /api/problems/{name}                one of them
//   GET  /api/leaderboard/{problem}          {"problem", "entries": [{"rank", "alias", "figure_ms", "finished"}]}
//   POST /api/submissions             TOKEN  multipart: "problem", "source" (a file, or a plain field
//                                            with an optional "filename") -> 202 {"id", "status"}
//   GET  /api/submissions             TOKEN  own, newest first; ?problem=P, ?limit=N; an admin adds
//                                            ?all (everyone's) or ?owner=NAME
//   GET  /api/submissions/{id}        TOKEN  owner or admin: the submission, with "report" when done
//   GET  /api/submissions/{id}/report.html   owner or admin: the HTML report (TOKEN)
//   GET  /api/submissions/{id}/gradescope    owner or admin: Gradescope's results.json (TOKEN)
//   POST /api/admin/rejudge/{id}      admin  {"id", "status": "queued"}
//   POST /api/admin/rejudge-problem/{problem}  admin  {"problem", "requeued": n}
// Every error: {"error": {"code", "message"}} with the status of kErrors (api.cc).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "judge/serve/limits.h"
#include "judge/serve/store.h"
#include "judge/util/expected.h"
#include "judge/util/json_fields.h"

namespace judge::serve {

// One part of a multipart/form-data body: a plain field has no filename.
struct FormPart {
  std::string name;
  std::string filename;
  std::string content_type;
  std::string content;
};

struct HttpRequest {
  std::string method;                          // "GET", "POST", ...
  std::string path;                            // decoded, without the query
  std::map<std::string, std::string> query;    // decoded; "?all" is {"all", ""}
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;                            // empty for multipart: see parts
  std::vector<FormPart> parts;                 // a multipart body, as parsed by the server
  bool multipart = false;                      // the body was multipart/form-data

  std::string Header(const std::string& lower_case_name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra: Retry-After, Allow, ...
};

// Every error the API answers, one row each in api.cc's table (HTTP status, stable code string).
enum class ApiError {
  kUnauthorized,
  kForbidden,
  kNotFound,
  kUnknownProblem,
  kEmptySource,
  kSourceTooLarge,
  kBodyTooLarge,
  kMalformedMultipart,
  kBadRequest,
  kRateLimited,
  kMethodNotAllowed,
  kInternal,
};
int HttpStatusOf(ApiError error);
std::string_view ErrorCodeName(ApiError error);  // "unauthorized", ...
// {"error": {"code", "message"}} with the error's status; retry_after_s > 0 adds Retry-After.
HttpResponse ErrorResponse(ApiError error, const std::string& message, int retry_after_s = 0);

// A problem as the API shows it (the service fills these from the catalog at start).
struct ProblemInfo {
  std::string name;  // the folder name in problems/: the only problem names accepted
  std::string title;
  std::string statement;  // Markdown
  std::string signature;  // "void solve(const float* input, float* output, int N)"
};

// Renders a stored JSON report (the text Store keeps) of a submission to `problem` in a report format:
// "html" (the report page) or "gradescope" (results.json, scored by the problem's grading policy).
using RenderReport = std::function<Expected<std::string>(const std::string& format, const std::string& problem,
                                                         const std::string& report_json)>;

struct ApiConfig {
  std::vector<ProblemInfo> problems;
  Limits limits;
  std::function<void()> wake;  // called after each committed submission or rejudge; may be empty
  RenderReport render;         // empty: report.html and gradescope answer 404
};

// JSON encodings, shared with whoever else speaks for the service (tests, tools).
Json SubmissionJson(const Submission& submission, bool with_report);
Json ProblemJson(const ProblemInfo& problem);
Json LeaderboardJson(const std::string& problem, const std::vector<BestResult>& best);
std::string IsoTime(int64_t unix_ms);  // "2026-12-01T10:00:00.123Z"; 0 -> ""

class Api {
 public:
  Api(Store& store, ApiConfig config);
  ~Api();
  Api(const Api&) = delete;
  Api& operator=(const Api&) = delete;
  // Thread-safe as far as the Store is: the Api keeps no state that changes after construction.
  HttpResponse Handle(const HttpRequest& request) const;

 private:
  struct Call;
  struct Route;
  HttpResponse Dispatch(const HttpRequest& request) const;
  Expected<std::optional<Principal>> Authenticate(const HttpRequest& request) const;
  const ProblemInfo* FindProblem(const std::string& name) const;

  HttpResponse Page(const Call& call) const;
  HttpResponse Health(const Call& call) const;
  HttpResponse Me(const Call& call) const;
  HttpResponse Problems(const Call& call) const;
  HttpResponse OneProblem(const Call& call) const;
  HttpResponse Leaderboard(const Call& call) const;
  HttpResponse Submit(const Call& call) const;
  HttpResponse ListSubmissions(const Call& call) const;
  HttpResponse GetSubmission(const Call& call) const;
  HttpResponse ReportHtml(const Call& call) const;
  HttpResponse ReportGradescope(const Call& call) const;
  HttpResponse Rendered(const Call& call, const std::string& format) const;
  HttpResponse Rejudge(const Call& call) const;
  HttpResponse RejudgeProblem(const Call& call) const;
  // The submission `call` names, if the caller may read it; otherwise the error answer.
  std::variant<Submission, HttpResponse> Readable(const Call& call) const;

  Store& store_;
  ApiConfig config_;
  std::vector<Route> routes_;
};

}  // namespace judge::serve

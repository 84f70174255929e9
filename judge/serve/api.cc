// SPDX-License-Identifier: MIT
#include "judge/serve/api.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <ctime>
#include <string_view>

#include <spdlog/spdlog.h>

#include "judge/serve/tokens.h"
#include "judge/serve/web_page.h"
#include "judge/util/utf8.h"

namespace judge::serve {
namespace {

struct ErrorRow {
  ApiError error;
  int status;
  std::string_view code;
};

// The one table of errors: a client keys on `code`, which never changes once published.
constexpr std::array<ErrorRow, 12> kErrors = {{
    {ApiError::kUnauthorized, 401, "unauthorized"},
    {ApiError::kForbidden, 403, "forbidden"},
    {ApiError::kNotFound, 404, "not_found"},
    {ApiError::kUnknownProblem, 422, "unknown_problem"},
    {ApiError::kEmptySource, 422, "empty_source"},
    {ApiError::kSourceTooLarge, 413, "source_too_large"},
    {ApiError::kBodyTooLarge, 413, "body_too_large"},
    {ApiError::kMalformedMultipart, 400, "malformed_multipart"},
    {ApiError::kBadRequest, 400, "bad_request"},
    {ApiError::kRateLimited, 429, "rate_limited"},
    {ApiError::kMethodNotAllowed, 405, "method_not_allowed"},
    {ApiError::kInternal, 500, "internal"},
}};

const ErrorRow& RowOf(ApiError error) {
  for (const auto& row : kErrors)
    if (row.error == error) return row;
  return kErrors.back();
}

// A display name from what the client sent: no folders, no control characters, bounded.
constexpr size_t kMaxFilenameBytes = 200;
std::string DisplayFilename(std::string_view sent, std::string_view fallback) {
  size_t slash = sent.find_last_of("/\\");
  if (slash != std::string_view::npos) sent.remove_prefix(slash + 1);
  std::string name;
  for (char c : ValidUtf8(sent.substr(0, kMaxFilenameBytes)))
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) name += c;
  return name.empty() ? std::string(fallback) : name;
}

bool IsBlank(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

// A submission id in a path: decimal digits only (no sign, no spaces), small enough for int64.
std::optional<int64_t> ParseId(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t id = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    id = id * 10 + (c - '0');
  }
  return id;
}

std::vector<std::string_view> Segments(std::string_view path) {
  std::vector<std::string_view> out;
  if (path.empty() || path.front() != '/') return out;
  path.remove_prefix(1);
  while (true) {
    size_t slash = path.find('/');
    out.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return out;
}

HttpResponse JsonResponse(int status, const Json& body) {
  HttpResponse response;
  response.status = status;
  // Invalid UTF-8 from a client (a filename) is replaced, never a reason to fail the answer.
  response.body = body.dump(-1, ' ', false, Json::error_handler_t::replace);
  return response;
}

// The store's own message names the database, its user and host, or the data folder: logged for
// the operator, never answered to a client.
HttpResponse Internal(const Error& error) {
  static std::atomic<uint64_t> next_ref{1};
  const uint64_t ref = next_ref++;
  spdlog::error("request failed (ref {}): {}", ref, error.message);
  return ErrorResponse(ApiError::kInternal,
                       "the judge's store failed (ref " + std::to_string(ref) + " in the service's log); try again");
}

const FormPart* FindPart(const std::vector<FormPart>& parts, std::string_view name) {
  for (const auto& part : parts)
    if (part.name == name) return &part;
  return nullptr;
}

}  // namespace

std::string HttpRequest::Header(const std::string& lower_case_name) const {
  auto it = headers.find(lower_case_name);
  return it == headers.end() ? std::string() : it->second;
}

int HttpStatusOf(ApiError error) { return RowOf(error).status; }
std::string_view ErrorCodeName(ApiError error) { return RowOf(error).code; }

HttpResponse ErrorResponse(ApiError error, const std::string& message, int retry_after_s) {
  HttpResponse response =
      JsonResponse(HttpStatusOf(error), {{"error", {{"code", ErrorCodeName(error)}, {"message", message}}}});
  if (retry_after_s > 0) response.headers.emplace_back("Retry-After", std::to_string(retry_after_s));
  return response;
}

std::string IsoTime(int64_t unix_ms) {
  if (unix_ms <= 0) return "";
  std::time_t seconds = unix_ms / 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, int(unix_ms % 1000));
  return text;
}

Json SubmissionJson(const Submission& s, bool with_report) {
  auto time = [](int64_t ms) { return ms > 0 ? Json(IsoTime(ms)) : Json(nullptr); };
  Json j = {{"id", s.id},
            {"owner", s.owner_name},
            {"problem", s.problem},
            {"filename", s.filename},
            {"status", StatusName(s.status)},
            {"progress", s.progress},
            {"created", time(s.created_ms)},
            {"started", time(s.started_ms)},
            {"finished", time(s.finished_ms)},
            {"created_ms", s.created_ms},
            {"generation", s.generation},
            {"attempts", s.attempts}};
  if (s.status != SubmissionStatus::kDone) return j;
  j["verdict"] = s.verdict;
  j["figure_ms"] = s.figure_ms >= 0 ? Json(s.figure_ms) : Json(nullptr);
  j["flagged"] = s.flagged;
  if (with_report) {
    // The stored report is the judge's own JSON; one that does not parse is shown as absent
    // rather than failing the whole answer (the verdict is still worth reading).
    Json report = Json::parse(s.report_json, nullptr, false);
    j["report"] = report.is_discarded() ? Json(nullptr) : report;
  }
  return j;
}

Json ProblemJson(const ProblemInfo& p) {
  return {{"name", p.name}, {"title", p.title}, {"statement", p.statement}, {"signature", p.signature}};
}

Json LeaderboardJson(const std::string& problem, const std::vector<BestResult>& best) {
  Json entries = Json::array();
  for (size_t i = 0; i < best.size(); ++i) {
    // Only the alias: a token's name is a student's login (an e-mail address, often), which the
    // class need not see; without an alias the student is a number.
    const Principal& who = best[i].who;
    entries.push_back({{"rank", i + 1},
                       {"alias", who.alias.empty() ? "student " + std::to_string(who.id) : who.alias},
                       {"figure_ms", best[i].figure_ms},
                       {"finished", IsoTime(best[i].finished_ms)}});
  }
  return {{"problem", problem}, {"entries", entries}};
}

// ---- routing ----

enum class Access { kPublic, kUser, kAdmin };

struct Api::Call {
  const HttpRequest& request;
  std::vector<std::string> params;  // the {..} segments of the route, in order
  std::optional<Principal> who;     // set for kUser and kAdmin routes
};

struct Api::Route {
  std::string_view method;
  std::vector<std::string_view> pattern;  // "{}" matches one non-empty segment
  Access access;
  HttpResponse (Api::*handler)(const Call&) const;
};

Api::Api(Store& store, ApiConfig config) : store_(store), config_(std::move(config)) {
  routes_ = {
      {"GET", {""}, Access::kPublic, &Api::Page},
      {"GET", {"api", "health"}, Access::kPublic, &Api::Health},
      {"GET", {"api", "me"}, Access::kUser, &Api::Me},
      {"GET", {"api", "problems"}, Access::kPublic, &Api::Problems},
      {"GET", {"api", "problems", "{}"}, Access::kPublic, &Api::OneProblem},
      {"GET", {"api", "leaderboard", "{}"}, Access::kPublic, &Api::Leaderboard},
      {"POST", {"api", "submissions"}, Access::kUser, &Api::Submit},
      {"GET", {"api", "submissions"}, Access::kUser, &Api::ListSubmissions},
      {"GET", {"api", "submissions", "{}"}, Access::kUser, &Api::GetSubmission},
      {"GET", {"api", "submissions", "{}", "report.html"}, Access::kUser, &Api::ReportHtml},
      {"GET", {"api", "submissions", "{}", "gradescope"}, Access::kUser, &Api::ReportGradescope},
      {"POST", {"api", "admin", "rejudge", "{}"}, Access::kAdmin, &Api::Rejudge},
      {"POST", {"api", "admin", "rejudge-problem", "{}"}, Access::kAdmin, &Api::RejudgeProblem},
  };
}

Api::~Api() = default;

HttpResponse Api::Handle(const HttpRequest& request) const {
  // The HTTP server has a limit of its own; this one holds for whoever else calls Handle.
  size_t bytes = request.body.size();
  for (const auto& part : request.parts) bytes += part.content.size();
  if (bytes > config_.limits.max_body_bytes)
    return ErrorResponse(ApiError::kBodyTooLarge, "the request body is " + std::to_string(bytes) + " bytes; at most " +
                                                      std::to_string(config_.limits.max_body_bytes) + " are accepted");
  HttpResponse response = Dispatch(request);
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  response.headers.emplace_back("Cache-Control", "no-store");
  return response;
}

HttpResponse Api::Dispatch(const HttpRequest& request) const {
  const std::vector<std::string_view> segments = Segments(request.path);
  std::string allowed;
  for (const auto& route : routes_) {
    if (route.pattern.size() != segments.size()) continue;
    std::vector<std::string> params;
    bool match = true;
    for (size_t i = 0; i < segments.size() && match; ++i) {
      if (route.pattern[i] == "{}") {
        match = !segments[i].empty();
        params.emplace_back(segments[i]);
      } else {
        match = route.pattern[i] == segments[i];
      }
    }
    if (!match) continue;
    if (route.method != request.method) {
      allowed += (allowed.empty() ? "" : ", ") + std::string(route.method);
      continue;
    }
    Call call{request, std::move(params), std::nullopt};
    if (route.access != Access::kPublic) {
      auto who = Authenticate(request);
      if (!who) return Internal(who.error());
      if (!*who)
        return ErrorResponse(ApiError::kUnauthorized,
                             "send a valid token in the header \"Authorization: Bearer TOKEN\" (ask your "
                             "teacher for one)");
      if (route.access == Access::kAdmin && !(*who)->admin)
        return ErrorResponse(ApiError::kForbidden, "only an admin token may do this");
      call.who = **who;
    }
    return (this->*route.handler)(call);
  }
  if (!allowed.empty()) {
    HttpResponse response =
        ErrorResponse(ApiError::kMethodNotAllowed, request.method + " is not allowed here; use " + allowed);
    response.headers.emplace_back("Allow", allowed);
    return response;
  }
  return ErrorResponse(ApiError::kNotFound, "no such route; see GET /api/problems and the web page at /");
}

Expected<std::optional<Principal>> Api::Authenticate(const HttpRequest& request) const {
  const std::string header = request.Header("authorization");
  constexpr std::string_view kScheme = "Bearer ";
  if (header.size() <= kScheme.size() || header.compare(0, kScheme.size(), kScheme) != 0)
    return std::optional<Principal>();
  std::string token = header.substr(kScheme.size());
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
  if (token.empty()) return std::optional<Principal>();
  return store_.FindToken(HashToken(token));
}

const ProblemInfo* Api::FindProblem(const std::string& name) const {
  for (const auto& p : config_.problems)
    if (p.name == name) return &p;
  return nullptr;
}

// ---- handlers ----

HttpResponse Api::Page(const Call&) const {
  HttpResponse response;
  response.content_type = "text/html; charset=utf-8";
  response.body = std::string(WebPage());
  // The page talks to this origin only; its reports are shown in a sandboxed frame.
  response.headers.emplace_back("Content-Security-Policy",
                                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                                "connect-src 'self'; img-src 'self' data:; frame-src 'self'");
  return response;
}

HttpResponse Api::Health(const Call&) const { return JsonResponse(200, {{"ok", true}}); }

HttpResponse Api::Me(const Call& call) const {
  return JsonResponse(200, {{"name", call.who->name}, {"alias", call.who->alias}, {"admin", call.who->admin}});
}

HttpResponse Api::Problems(const Call&) const {
  Json list = Json::array();
  for (const auto& p : config_.problems) list.push_back(ProblemJson(p));
  return JsonResponse(200, list);
}

HttpResponse Api::OneProblem(const Call& call) const {
  const ProblemInfo* problem = FindProblem(call.params[0]);
  if (!problem) return ErrorResponse(ApiError::kNotFound, "no problem named \"" + call.params[0] + "\"");
  return JsonResponse(200, ProblemJson(*problem));
}

HttpResponse Api::Leaderboard(const Call& call) const {
  if (!FindProblem(call.params[0]))
    return ErrorResponse(ApiError::kNotFound, "no problem named \"" + call.params[0] + "\"");
  auto best = store_.Best(call.params[0]);
  if (!best) return Internal(best.error());
  return JsonResponse(200, LeaderboardJson(call.params[0], *best));
}

HttpResponse Api::Submit(const Call& call) const {
  const HttpRequest& request = call.request;
  if (!request.multipart)
    return ErrorResponse(ApiError::kBadRequest,
                         "send the submission as multipart/form-data with the fields \"problem\" and \"source\"");
  const FormPart* problem = FindPart(request.parts, "problem");
  const FormPart* source = FindPart(request.parts, "source");
  if (!problem) return ErrorResponse(ApiError::kBadRequest, "the field \"problem\" is missing");
  if (!FindProblem(problem->content))
    return ErrorResponse(ApiError::kUnknownProblem, "no problem named \"" + ValidUtf8(problem->content.substr(0, 100)) +
                                                        "\"; GET /api/problems lists them");
  if (!source) return ErrorResponse(ApiError::kBadRequest, "the part \"source\" (the file) is missing");
  if (IsBlank(source->content)) return ErrorResponse(ApiError::kEmptySource, "the source is empty");
  if (source->content.size() > config_.limits.max_source_bytes)
    return ErrorResponse(ApiError::kSourceTooLarge,
                         "the source is " + std::to_string(source->content.size()) + " bytes; at most " +
                             std::to_string(config_.limits.max_source_bytes) + " are accepted");
  // A source is text: the databases keep it as text, and a compiler would refuse it anyway.
  if (source->content.find('\0') != std::string::npos || !IsValidUtf8(source->content))
    return ErrorResponse(ApiError::kBadRequest, "the source is not UTF-8 text; send the .cu file itself");

  const FormPart* filename_field = FindPart(request.parts, "filename");
  NewSubmission submission;
  submission.owner = call.who->id;
  submission.problem = problem->content;
  submission.filename = DisplayFilename(
      !source->filename.empty() ? source->filename : (filename_field ? filename_field->content : ""), "source");
  submission.source = source->content;
  std::optional<Usage> refused;
  auto id = store_.Enqueue(submission, [&](const Usage& usage) {
    Status admitted = Admit(usage, config_.limits);
    if (!admitted) refused = usage;
    return admitted;
  });
  if (!id && refused)
    return ErrorResponse(ApiError::kRateLimited, id.error().message, RetryAfterSeconds(*refused, config_.limits));
  if (!id) return Internal(id.error());
  if (config_.wake) config_.wake();
  return JsonResponse(202, {{"id", *id}, {"status", StatusName(SubmissionStatus::kQueued)}});
}

HttpResponse Api::ListSubmissions(const Call& call) const {
  const auto& q = call.request.query;
  SubmissionQuery query;
  query.owner = call.who->id;
  if (q.count("all") || q.count("owner")) {
    if (!call.who->admin) return ErrorResponse(ApiError::kForbidden, "only an admin may list others' submissions");
    query.owner.reset();
  }
  if (auto it = q.find("owner"); it != q.end()) {
    auto tokens = store_.ListTokens();
    if (!tokens) return Internal(tokens.error());
    auto named =
        std::find_if(tokens->begin(), tokens->end(), [&](const TokenInfo& t) { return t.who.name == it->second; });
    if (named == tokens->end()) return ErrorResponse(ApiError::kNotFound, "no token named \"" + it->second + "\"");
    query.owner = named->who.id;
  }
  if (auto it = q.find("problem"); it != q.end()) {
    if (!FindProblem(it->second))
      return ErrorResponse(ApiError::kUnknownProblem, "no problem named \"" + it->second + "\"");
    query.problem = it->second;
  }
  if (auto it = q.find("limit"); it != q.end()) {
    auto limit = ParseId(it->second);
    if (!limit || *limit < 1 || *limit > 1000)
      return ErrorResponse(ApiError::kBadRequest, "limit must be a number from 1 to 1000");
    query.limit = *limit;
  }
  auto list = store_.List(query);
  if (!list) return Internal(list.error());
  Json out = Json::array();
  for (const auto& s : *list) out.push_back(SubmissionJson(s, false));
  return JsonResponse(200, out);
}

std::variant<Submission, HttpResponse> Api::Readable(const Call& call) const {
  auto id = ParseId(call.params[0]);
  if (!id) return ErrorResponse(ApiError::kNotFound, "a submission id is a number, not \"" + call.params[0] + "\"");
  auto found = store_.Get(*id);
  if (!found) return Internal(found.error());
  if (!*found) return ErrorResponse(ApiError::kNotFound, "no submission " + std::to_string(*id));
  if ((*found)->owner != call.who->id && !call.who->admin)
    return ErrorResponse(ApiError::kForbidden, "submission " + std::to_string(*id) + " is not yours");
  return std::move(**found);
}

HttpResponse Api::GetSubmission(const Call& call) const {
  auto readable = Readable(call);
  if (auto* refusal = std::get_if<HttpResponse>(&readable)) return std::move(*refusal);
  return JsonResponse(200, SubmissionJson(std::get<Submission>(readable), true));
}

HttpResponse Api::ReportHtml(const Call& call) const {
  auto response = Rendered(call, "html");
  if (response.status != 200) return response;
  response.content_type = "text/html; charset=utf-8";
  // The report quotes what a submission and its compiler printed: no script runs in it, ever.
  response.headers.emplace_back("Content-Security-Policy",
                                "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox");
  return response;
}

HttpResponse Api::ReportGradescope(const Call& call) const { return Rendered(call, "gradescope"); }

HttpResponse Api::Rendered(const Call& call, const std::string& format) const {
  auto readable = Readable(call);
  if (auto* refusal = std::get_if<HttpResponse>(&readable)) return std::move(*refusal);
  const Submission& s = std::get<Submission>(readable);
  if (s.status != SubmissionStatus::kDone || s.report_json.empty())
    return ErrorResponse(ApiError::kNotFound, "submission " + std::to_string(s.id) + " has no report yet (it is " +
                                                  std::string(StatusName(s.status)) + ")");
  if (!config_.render) return ErrorResponse(ApiError::kNotFound, "this service renders no " + format + " reports");
  auto text = config_.render(format, s.problem, s.report_json);
  if (!text) return ErrorResponse(ApiError::kInternal, "the report could not be rendered: " + text.error().message);
  HttpResponse response;
  response.body = std::move(*text);
  return response;
}

HttpResponse Api::Rejudge(const Call& call) const {
  auto id = ParseId(call.params[0]);
  if (!id) return ErrorResponse(ApiError::kNotFound, "a submission id is a number, not \"" + call.params[0] + "\"");
  auto requeued = store_.Rejudge(*id);
  if (!requeued) return Internal(requeued.error());
  if (!*requeued) return ErrorResponse(ApiError::kNotFound, "no submission " + std::to_string(*id));
  if (config_.wake) config_.wake();
  return JsonResponse(200, {{"id", *id}, {"status", StatusName(SubmissionStatus::kQueued)}});
}

HttpResponse Api::RejudgeProblem(const Call& call) const {
  if (!FindProblem(call.params[0]))
    return ErrorResponse(ApiError::kNotFound, "no problem named \"" + call.params[0] + "\"");
  auto requeued = store_.RejudgeProblem(call.params[0]);
  if (!requeued) return Internal(requeued.error());
  if (config_.wake) config_.wake();
  return JsonResponse(200, {{"problem", call.params[0]}, {"requeued", *requeued}});
}

}  // namespace judge::serve

// SPDX-License-Identifier: MIT
#include "judge/serve/http_server.h"

#include <httplib.h>

#include <array>
#include <cctype>
#include <chrono>
#include <exception>
#include <string_view>

namespace judge::serve {
namespace {

// Every path goes to the Api, which has the one table of routes.
constexpr const char* kAnyPath = R"(/.*)";
constexpr std::array<std::string_view, 7> kMethods = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"};

std::string Lower(std::string text) {
  for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

HttpRequest FromHttplib(const httplib::Request& req) {
  HttpRequest out;
  out.method = req.method;
  out.path = req.path;
  for (const auto& [key, value] : req.params) out.query.emplace(key, value);
  for (const auto& [key, value] : req.headers) out.headers.emplace(Lower(key), value);
  out.multipart = req.is_multipart_form_data();
  if (!out.multipart) out.body = req.body;
  for (const auto& [name, file] : req.files)
    out.parts.push_back({file.name, file.filename, file.content_type, file.content});
  return out;
}

void ToHttplib(const HttpResponse& in, httplib::Response& res) {
  res.status = in.status;
  for (const auto& [key, value] : in.headers) res.set_header(key, value);
  res.set_content(in.body, in.content_type);
}

// What httplib refused before a handler ran, as the API's error: which code its status means here.
HttpResponse RefusalOf(const httplib::Request& req, int status) {
  // No method at all: the request line itself could not be read (too long, or not HTTP/1.x).
  if (req.method.empty())
    return ErrorResponse(ApiError::kBadRequest, "the request line could not be read (too long, or not HTTP/1.x)");
  bool known_method = false;
  for (auto m : kMethods) known_method |= (req.method == m);
  if (!known_method)
    return ErrorResponse(ApiError::kMethodNotAllowed,
                         "the method \"" + req.method.substr(0, 20) + "\" is not used here");
  switch (status) {
    case 413: return ErrorResponse(ApiError::kBodyTooLarge, "the request body is larger than this service accepts");
    case 404: return ErrorResponse(ApiError::kNotFound, "no such route");
    case 400:
      if (req.is_multipart_form_data())
        return ErrorResponse(ApiError::kMalformedMultipart,
                             "the multipart/form-data body could not be parsed (boundary, part headers or end)");
      break;
    default: break;
  }
  if (status >= 500) return ErrorResponse(ApiError::kInternal, "the service failed to answer this request");
  // 414 (URI too long), 431 and the like: the client's fault, kept with httplib's status.
  HttpResponse response =
      ErrorResponse(ApiError::kBadRequest, "the request is malformed (HTTP " + std::to_string(status) + ")");
  response.status = status;
  return response;
}

}  // namespace

HttpServer::HttpServer(const Api& api, HttpServerOptions options)
    : api_(api), options_(std::move(options)), server_(std::make_unique<httplib::Server>()) {
  const int threads = options_.threads;
  server_->new_task_queue = [threads] { return new httplib::ThreadPool(size_t(threads)); };
  server_->set_payload_max_length(options_.max_body_bytes);
  server_->set_keep_alive_timeout(options_.keep_alive_seconds);
  // A client that sends a request slowly holds a thread: it gets this long for each read.
  server_->set_read_timeout(10, 0);
  server_->set_write_timeout(10, 0);
  auto handle = [this](const httplib::Request& req, httplib::Response& res) {
    ToHttplib(api_.Handle(FromHttplib(req)), res);
  };
  server_->Get(kAnyPath, handle);
  server_->Post(kAnyPath, handle);
  server_->Put(kAnyPath, handle);
  server_->Patch(kAnyPath, handle);
  server_->Delete(kAnyPath, handle);
  server_->Options(kAnyPath, handle);
  // Called for every status >= 400, the Api's own answers included: those have their body.
  httplib::Server::HandlerWithResponse on_error = [](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    ToHttplib(RefusalOf(req, res.status), res);
    return httplib::Server::HandlerResponse::Handled;
  };
  server_->set_error_handler(on_error);
  server_->set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
    std::string what = "unknown exception";
    try {
      if (error) std::rethrow_exception(error);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {}
    ToHttplib(ErrorResponse(ApiError::kInternal, "the service failed on this request: " + what), res);
  });
}

HttpServer::~HttpServer() { Stop(); }

Expected<int> HttpServer::Start() {
  int port = options_.port;
  if (port == 0) {
    port = server_->bind_to_any_port(options_.host);
    if (port < 0) port = 0;
  } else if (!server_->bind_to_port(options_.host, port)) {
    port = 0;
  }
  if (port == 0)
    return MakeError(ErrorCode::kUsage, "cannot listen on " + options_.host + ":" + std::to_string(options_.port) +
                                            ": the port is taken or the address is not this host's; choose "
                                            "another with --port");
  listener_ = std::thread([this] { server_->listen_after_bind(); });
  // Stop() before the loop runs would not reach it: Start returns once it runs.
  for (int i = 0; i < 5000 && !server_->is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return port;
}

void HttpServer::Stop() {
  if (!listener_.joinable()) return;
  server_->stop();
  listener_.join();
}

}  // namespace judge::serve

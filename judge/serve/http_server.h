// SPDX-License-Identifier: MIT
#pragma once
// The HTTP mechanism of `judge serve`: cpp-httplib's server handing every request to Api::Handle.
// It parses (headers, query, multipart) and enforces the body limit; everything the API decides is
// in api.cc. Its own refusals (a malformed request line, an oversized body, broken multipart) are
// answered in the API's JSON error format too.
//
// Threads: one listener, and a pool of kDefaultThreads request threads: a status poll must not wait
// behind uploads or behind idle keep-alive connections (each holds a thread while it is open), so
// the pool is far larger than the cores; grading runs on threads of its own (grader.h).
#include <memory>
#include <string>
#include <thread>

#include "judge/serve/api.h"
#include "judge/util/expected.h"

namespace httplib {
class Server;
}

namespace judge::serve {

struct HttpServerOptions {
  std::string host = "0.0.0.0";
  int port = 8080;  // 0: any free port (Start returns it)
  int threads = 64;
  size_t max_body_bytes = Limits{}.max_body_bytes;
  int keep_alive_seconds = 5;  // an idle connection is closed after this, freeing its thread
};

class HttpServer {
 public:
  HttpServer(const Api& api, HttpServerOptions options);
  ~HttpServer();  // Stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and answers requests on a thread of its own; returns the port bound.
  Expected<int> Start();
  // Stops accepting, lets requests in progress finish, joins the threads. Idempotent.
  void Stop();

 private:
  const Api& api_;
  HttpServerOptions options_;
  std::unique_ptr<httplib::Server> server_;
  std::thread listener_;
};

}  // namespace judge::serve

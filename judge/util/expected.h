// SPDX-License-Identifier: MIT
#pragma once
// Errors travel as values (ccache's expected<T, Error>): each stage returns Expected<T>, and the
// caller decides whether a failure is the submission's, the user's, or the judge's own.
#include <string>
#include <utility>
#include <variant>

namespace judge {

// Stable numbers: they appear in logs and in the JSON report's "error.code".
enum class ErrorCode : int {
  kUsage = 1,          // bad command line, unknown problem, missing file: the user's to fix
  kBadInput = 2,       // malformed problem or testcase file
  kNoDevice = 3,       // no usable GPU
  kIo = 4,             // a file the judge needs could not be read or written
  kSubprocess = 5,     // a helper program (nvcc, c++) could not be started
  kCuda = 6,           // a CUDA call failed
  kDeviceMemory = 10,  // a CUDA allocation failed (cudaErrorMemoryAllocation): MLE when solve() caused it
  kProtocol = 7,       // a worker message was malformed
  kInternal = 9,       // a bug in the judge
};

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
};

inline Error MakeError(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

template <typename T>
class Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Expected(Error error) : v_(std::move(error)) {}  // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }
  T value_or(T fallback) const { return ok() ? value() : fallback; }

 private:
  std::variant<T, Error> v_;
};

// Expected<void> without the template gymnastics.
class Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT
  static Status Ok() { return Status(); }
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace judge

// Propagates a failed Status/Expected from the enclosing function.
#define JUDGE_TRY(expr)                                            \
  do {                                                             \
    auto judge_try_result_ = (expr);                               \
    if (!judge_try_result_.ok()) return judge_try_result_.error(); \
  } while (0)

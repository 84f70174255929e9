// SPDX-License-Identifier: MIT
#pragma once
// The submission's shared library, loaded in the worker process only, and its entry point called
// with arguments built from the problem's signature.
#include <cstdint>
#include <string>
#include <vector>

#include "judge/util/expected.h"

namespace judge {

// One argument of the entry point: a device pointer, an int32 or a float scalar.
struct CallArg {
  enum Kind { kPointer, kInt, kFloat } kind = kPointer;
  void* pointer = nullptr;
  int32_t scalar = 0;
  float real = 0;
};

class SubmissionLibrary {
 public:
  SubmissionLibrary() = default;
  SubmissionLibrary(const SubmissionLibrary&) = delete;
  SubmissionLibrary& operator=(const SubmissionLibrary&) = delete;
  ~SubmissionLibrary();
  // dlopen runs the library's static constructors: a crash there is the submission's, and the
  // supervisor sees it as the worker dying during "load".
  Status Open(const std::string& path, const std::string& entry_point);
  // Calls entry_point(args...) (1 to 6 arguments).
  Status Call(const std::vector<CallArg>& args) const;
  bool is_open() const { return handle_ != nullptr; }

 private:
  void* handle_ = nullptr;
  void* entry_ = nullptr;
};

}  // namespace judge

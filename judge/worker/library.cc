// SPDX-License-Identifier: MIT
#include "judge/worker/library.h"

#include <dlfcn.h>

namespace judge {
namespace {

// Builds the exact C function type from the runtime signature, one argument at a time, so each
// call uses the platform's real calling convention rather than a guess.
template <typename... Ts>
void CallWith(void* fn, const std::vector<CallArg>& args, Ts... prefix) {
  constexpr size_t kIndex = sizeof...(Ts);
  if (kIndex == args.size()) {
    reinterpret_cast<void (*)(Ts...)>(fn)(prefix...);
    return;
  }
  if constexpr (kIndex < 6) {
    const CallArg& a = args[kIndex];
    switch (a.kind) {
      case CallArg::kPointer: return CallWith(fn, args, prefix..., a.pointer);
      case CallArg::kInt: return CallWith(fn, args, prefix..., a.scalar);
      case CallArg::kFloat: return CallWith(fn, args, prefix..., a.real);
    }
  }
}

}  // namespace

SubmissionLibrary::~SubmissionLibrary() {
  // Deliberately not dlclose()d: the worker exits soon after, and unloading code that may have
  // left kernels or threads running would turn a clean exit into a crash.
}

Status SubmissionLibrary::Open(const std::string& path, const std::string& entry_point) {
  handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) return MakeError(ErrorCode::kBadInput, std::string("dlopen failed: ") + ::dlerror());
  entry_ = ::dlsym(handle_, entry_point.c_str());
  if (!entry_) return MakeError(ErrorCode::kBadInput, "the library has no symbol `" + entry_point + "`");
  return Status::Ok();
}

Status SubmissionLibrary::Call(const std::vector<CallArg>& args) const {
  if (!entry_) return MakeError(ErrorCode::kInternal, "entry point not loaded");
  if (args.empty() || args.size() > 6) return MakeError(ErrorCode::kInternal, "entry point takes 1 to 6 arguments");
  CallWith(entry_, args);
  return Status::Ok();
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/device/driver_calls.h"

#include <cuda_runtime.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>

namespace judge {
namespace {

#ifndef SYS_mseal
constexpr long SYS_mseal = 462;  // as in sandbox/code_seal.cc: glibc headers before 2.40 lack it
#endif

template <class Fn>
Status Look(const char* name, Fn* out) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  cudaError_t err = cudaGetDriverEntryPointByVersion(name, &fn, CUDART_VERSION, cudaEnableDefault, &found);
  if (err != cudaSuccess || found != cudaDriverEntryPointSuccess || !fn)
    return MakeError(ErrorCode::kCuda, std::string("the driver has no ") + name + " for CUDA " +
                                           std::to_string(CUDART_VERSION) + " (" + cudaGetErrorName(err) + ")");
  *out = reinterpret_cast<Fn>(fn);
  return Status::Ok();
}

Expected<const DriverCalls*> Make() {
  const size_t page = size_t(::sysconf(_SC_PAGESIZE));
  void* mem = ::mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return MakeError(ErrorCode::kIo, std::string("mmap: ") + std::strerror(errno));
  auto* calls = new (mem) DriverCalls;
  JUDGE_TRY(Look("cuEventRecord", &calls->event_record));
  JUDGE_TRY(Look("cuEventElapsedTime", &calls->event_elapsed));
  JUDGE_TRY(Look("cuLaunchKernel", &calls->launch));
  JUDGE_TRY(Look("cuMemsetD8Async", &calls->memset_d8));
  JUDGE_TRY(Look("cuCtxResetPersistingL2Cache", &calls->reset_persisting_l2));
  if (::mprotect(mem, page, PROT_READ) != 0)
    return MakeError(ErrorCode::kIo, std::string("mprotect: ") + std::strerror(errno));
  (void)::syscall(SYS_mseal, mem, page, 0);  // without mseal (ENOSYS) the page stays read-only only
  return calls;
}

}  // namespace

Expected<const DriverCalls*> SealedDriverCalls() {
  static std::once_flag once;
  static Expected<const DriverCalls*> calls = MakeError(ErrorCode::kInternal, "not made");
  std::call_once(once, [] { calls = Make(); });
  return calls;
}

}  // namespace judge

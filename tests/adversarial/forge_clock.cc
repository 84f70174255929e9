// A correct but slow submission that forges its time from inside the worker: it patches libc's
// clock_gettime (which the host double's timer and the harness's wall clock both read) so that time
// runs 2.5x slower in this process. Both in-process clocks agree, so only the judge's own clock,
// in another process, can tell. Expected: AC, flagged (not ranked).
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

namespace {
int64_t origin_ns = -1;

extern "C" int SlowClock(clockid_t id, struct timespec* ts) {
  long rc = syscall(SYS_clock_gettime, id, ts);
  if (rc != 0 || id != CLOCK_MONOTONIC) return int(rc);
  int64_t ns = int64_t(ts->tv_sec) * 1000000000 + ts->tv_nsec;
  if (origin_ns < 0) origin_ns = ns;
  ns = origin_ns + (ns - origin_ns) * 2 / 5;
  ts->tv_sec = ns / 1000000000;
  ts->tv_nsec = ns % 1000000000;
  return 0;
}

__attribute__((constructor)) void PatchClock() {
  auto* target = reinterpret_cast<uint8_t*>(dlsym(RTLD_DEFAULT, "clock_gettime"));
  if (!target) return;
  uintptr_t page = uintptr_t(target) & ~uintptr_t(4095);
  if (mprotect(reinterpret_cast<void*>(page), 8192, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return;
  uint8_t jump[12] = {0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xE0};  // movabs rax, SlowClock; jmp rax
  auto address = reinterpret_cast<uintptr_t>(&SlowClock);
  std::memcpy(jump + 2, &address, 8);
  std::memcpy(target, jump, sizeof jump);
  mprotect(reinterpret_cast<void*>(page), 8192, PROT_READ | PROT_EXEC);
}
}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  double best = 0;
  for (int pass = 0; pass < 60; ++pass) {  // slow on purpose: 60 passes where one would do
    double s = 0;
    for (int i = 0; i < N; ++i) s += input[i];
    best = s;
  }
  output[0] = float(best);
}

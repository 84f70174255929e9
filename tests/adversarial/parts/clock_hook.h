// Inlined into forging fixtures by the adversarial test (at an include of "inline:" and this name, entries
// with "template": true): a submission is one file, its compiler reads nothing else of its folder.
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>

#ifndef CLOCK_HOOK_SLOWDOWN
#define CLOCK_HOOK_SLOWDOWN 2.5
#endif
// Redirects libc's clock_gettime (the harness's wall clock and the host double's timer read it) to
// one where CLOCK_MONOTONIC runs CLOCK_HOOK_SLOWDOWN times slower in this process. The code page is
// made writable, patched and made executable again (never both at once, which seccomp refuses),
// with raw system calls: while the page is writable, libc's code on it cannot run.
namespace clock_hook {

int64_t origin_ns = -1;
const char* outcome = "clock_gettime patch not tried";

int SlowClock(clockid_t id, struct timespec* ts) {
  long rc = syscall(SYS_clock_gettime, id, ts);
  if (rc != 0 || id != CLOCK_MONOTONIC) return int(rc);
  int64_t ns = int64_t(ts->tv_sec) * 1000000000 + ts->tv_nsec;
  if (origin_ns < 0) origin_ns = ns;
  ns = origin_ns + int64_t(double(ns - origin_ns) / CLOCK_HOOK_SLOWDOWN);
  ts->tv_sec = ns / 1000000000;
  ts->tv_nsec = ns % 1000000000;
  return 0;
}

long RawMprotect(uintptr_t page, size_t bytes, int prot) {
  long ret;
  asm volatile("syscall"
               : "=a"(ret)
               : "a"(long(SYS_mprotect)), "D"(page), "S"(bytes), "d"(long(prot))
               : "rcx", "r11", "memory");
  return ret;
}

void Patch() {
  auto* target = reinterpret_cast<volatile uint8_t*>(dlsym(RTLD_DEFAULT, "clock_gettime"));
  if (!target) return;
  uintptr_t page = uintptr_t(target) & ~uintptr_t(4095);
  if (long rc = RawMprotect(page, 8192, PROT_READ | PROT_WRITE); rc != 0) {
    outcome = rc == -EPERM ? "clock_gettime patch refused" : "clock_gettime patch failed";
    return;
  }
  uint8_t jump[12] = {0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xE0};  // movabs rax, SlowClock; jmp rax
  auto address = reinterpret_cast<uintptr_t>(&SlowClock);
  for (int i = 0; i < 8; ++i) jump[2 + i] = uint8_t(address >> (8 * i));
  for (int i = 0; i < 12; ++i) target[i] = jump[i];
  RawMprotect(page, 8192, PROT_READ | PROT_EXEC);
  outcome = "clock_gettime patched";
}

}  // namespace clock_hook

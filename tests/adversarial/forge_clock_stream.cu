// A correct, slow kernel that hides its time from both in-worker clocks: it runs on a stream of its
// own (the events around solve() see an empty window) and its constructor makes this process's
// CLOCK_MONOTONIC run 1000x slow, so the harness's wall-clock audit would see no unseen time
// either. Expected: the sealed code refuses the clock patch, so the audit sees the hidden work (AC,
// flagged "escaped the event window", timed by the wall clock); with the seal left out, the
// judge's own clock flags it (without that clock it would rank at a few microseconds).
#include <cuda_runtime.h>

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>

#define CLOCK_HOOK_SLOWDOWN 1000
// Redirects libc's clock_gettime (the harness's wall clock and the host double's timer read it) to
// one where CLOCK_MONOTONIC runs CLOCK_HOOK_SLOWDOWN times slower in this process. The code page is
// made writable, patched and made executable again (never both at once, which seccomp refuses),
// with raw system calls: while the page is writable, libc's code on it cannot run.
// The same in forge_clock.cc and forge_clock_stream.cu: a submission is one file (its compiler
// reads nothing else of its folder).
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


__attribute__((constructor)) static void Install() { clock_hook::Patch(); }

__global__ void OneBlockSum(const float* input, float* output, int n) {
  __shared__ double part[256];
  double s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += input[i];
  part[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    double total = 0;
    for (int t = 0; t < 256; ++t) total += part[t];
    output[0] = float(total);
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  static cudaStream_t hidden = nullptr;
  if (!hidden) {
    fprintf(stderr, "%s\n", clock_hook::outcome);
    cudaStreamCreateWithFlags(&hidden, cudaStreamNonBlocking);
  }
  OneBlockSum<<<1, 256, 0, hidden>>>(input, output, N);  // not waited for: the harness's sync does
}

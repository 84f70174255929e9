// A correct, slow kernel that hides its time from both in-worker clocks: it runs on a stream of its
// own (the events around solve() see an empty window) and its constructor makes this process's
// CLOCK_MONOTONIC run 1000x slow, so the harness's wall-clock audit sees no unseen time either.
// Without the judge's clock this ranks at a few microseconds. Expected: AC, flagged (not ranked).
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

static long long g_start = -1;

extern "C" int CrawlingClock(clockid_t which, timespec* out) {
  if (syscall(SYS_clock_gettime, which, out) != 0) return -1;
  if (which != CLOCK_MONOTONIC) return 0;
  long long now = out->tv_sec * 1000000000LL + out->tv_nsec;
  if (g_start < 0) g_start = now;
  now = g_start + (now - g_start) / 1000;
  out->tv_sec = now / 1000000000LL;
  out->tv_nsec = now % 1000000000LL;
  return 0;
}

static void Redirect(void* from, void* to) {
  unsigned char code[] = {0x49, 0xBB, 0, 0, 0, 0, 0, 0, 0, 0, 0x41, 0xFF, 0xE3};  // movabs r11, to; jmp r11
  memcpy(code + 2, &to, sizeof to);
  char* page = (char*)((uintptr_t)from & ~(uintptr_t)0xFFF);
  if (mprotect(page, 0x2000, PROT_READ | PROT_WRITE | PROT_EXEC)) return;
  memcpy(from, code, sizeof code);
  mprotect(page, 0x2000, PROT_READ | PROT_EXEC);
}

__attribute__((constructor)) static void Install() {
  if (void* f = dlsym(RTLD_DEFAULT, "clock_gettime")) Redirect(f, (void*)&CrawlingClock);
}

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
  if (!hidden) cudaStreamCreateWithFlags(&hidden, cudaStreamNonBlocking);
  OneBlockSum<<<1, 256, 0, hidden>>>(input, output, N);  // not waited for: the harness's sync does
}

// Every way in-process code could be rewritten to forge a time, tried from a static constructor
// (before the library finished loading) and from solve(): the harness's clock in libc, the vDSO,
// the judge's own code, its relocation table (GOT), writing through /proc/self/mem, a new
// writable-and-executable page, and new executable memory after load. Each attempt must be
// refused; the sum itself is right. Expected: AC, the report shows every "refused", no "DONE".
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {
// Plain bytes, not std::string: the constructor below may run before this file's dynamic
// initializers.
char results[2048];

void Note(const char* target, bool done) {
  size_t used = strlen(results);
  snprintf(results + used, sizeof results - used, "patch %s: %s%s%s\n", target, done ? "DONE" : "refused (",
           done ? "" : strerror(errno), done ? "" : ")");
}

void* PageOf(uintptr_t address) { return reinterpret_cast<void*>(address & ~uintptr_t(4095)); }

bool MakeWritable(uintptr_t address) { return mprotect(PageOf(address), 4096, PROT_READ | PROT_WRITE) == 0; }

// The main program's (the judge's) first executable segment and its RELRO segment.
struct Judge {
  uintptr_t code = 0, relro = 0;
};
int FindJudge(dl_phdr_info* info, size_t, void* out) {
  auto* j = static_cast<Judge*>(out);
  if (info->dlpi_name && info->dlpi_name[0]) return 0;  // the main program has no name here
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& p = info->dlpi_phdr[i];
    if (p.p_type == PT_LOAD && (p.p_flags & PF_X) && !j->code) j->code = info->dlpi_addr + p.p_vaddr;
    if (p.p_type == PT_GNU_RELRO) j->relro = info->dlpi_addr + p.p_vaddr;
  }
  return 1;
}

__attribute__((constructor)) void TryEverything() {
  Note("clock_gettime in libc", MakeWritable(uintptr_t(dlsym(RTLD_DEFAULT, "clock_gettime"))));
  Note("vDSO", MakeWritable(uintptr_t(getauxval(AT_SYSINFO_EHDR))));
  Judge judge;
  dl_iterate_phdr(FindJudge, &judge);
  Note("judge code", judge.code && MakeWritable(judge.code));
  Note("judge GOT", judge.relro && MakeWritable(judge.relro));
  int fd = open("/proc/self/mem", O_RDWR);
  Note("/proc/self/mem", fd >= 0);
  void* rwx = mmap(nullptr, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  Note("writable+executable page", rwx != MAP_FAILED);
}
}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static bool first = true;
  if (first) {
    first = false;
    void* rx = mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    Note("executable page after load", rx != MAP_FAILED);
    fputs(results, stderr);
  }
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  output[0] = float(s);
}

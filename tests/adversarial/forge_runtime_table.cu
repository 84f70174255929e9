// A correct, slow kernel that tries to forge its event times through the CUDA runtime's own table
// of driver functions: that table is writable data (no seal can cover it), so the submission finds
// every pointer to the driver's cuEventElapsedTime in the writable memory of the loaded libraries
// and points it at a function that reports 40% of the real time. When the harness read its events
// through the runtime, this made them lie (flagged only by the judge's own clock, on the H200);
// it now times through a table of its own, sealed before the submission loads
// (judge/device/driver_calls.h). Expected: AC, the report shows "runtime table patched" (the
// attack ran) and no forgery flag (the times it left are true).
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <link.h>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

using ElapsedFn = CUresult (*)(float*, CUevent, CUevent);
// Kept inverted: the scan below would otherwise find this copy too and make the forgery call itself.
uintptr_t real_elapsed_inverted = 0;
int replaced = 0;

CUresult ForgedElapsed(float* ms, CUevent start, CUevent end) {
  CUresult r = reinterpret_cast<ElapsedFn>(~real_elapsed_inverted)(ms, start, end);
  if (r == CUDA_SUCCESS) *ms *= 0.4f;
  return r;
}

std::vector<uintptr_t> Targets() {
  std::vector<uintptr_t> t;
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!cuda) return t;
  for (const char* name : {"cuEventElapsedTime", "cuEventElapsedTime_v2"})
    if (void* f = dlsym(cuda, name)) t.push_back(uintptr_t(f));
  for (unsigned version : {12000u, 12080u, 13000u}) {  // as the runtime asks the driver for it
    void* f = nullptr;
    cudaDriverEntryPointQueryResult status;
    if (cudaGetDriverEntryPointByVersion("cuEventElapsedTime", &f, version, cudaEnableDefault, &status) ==
            cudaSuccess &&
        f)
      t.push_back(uintptr_t(f));
  }
  return t;
}

// Writable segments only, less their RELRO part (read-only after relocation: writing faults).
int Scan(dl_phdr_info* info, size_t, void* data) {
  auto* targets = static_cast<std::vector<uintptr_t>*>(data);
  uintptr_t relro_begin = 0, relro_end = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO) {
      relro_begin = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
      relro_end = relro_begin + info->dlpi_phdr[i].p_memsz;
    }
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& p = info->dlpi_phdr[i];
    if (p.p_type != PT_LOAD || !(p.p_flags & PF_W)) continue;
    uintptr_t begin = (info->dlpi_addr + p.p_vaddr + 7) & ~uintptr_t(7), end = info->dlpi_addr + p.p_vaddr + p.p_memsz;
    for (uintptr_t at = begin; at + 8 <= end; at += 8) {
      if (at >= relro_begin && at < relro_end) continue;
      auto* word = reinterpret_cast<uintptr_t*>(at);
      for (uintptr_t t : *targets)
        if (*word == t) {
          if (!real_elapsed_inverted) real_elapsed_inverted = ~t;
          *word = uintptr_t(&ForgedElapsed);
          ++replaced;
          fprintf(stderr, "forge: replaced a pointer in %s\n", info->dlpi_name[0] ? info->dlpi_name : "(main program)");
        }
    }
  }
  return 0;
}

}  // namespace

#include "inline:one_block_sum.cuh"

extern "C" void solve(const float* input, float* output, int N) {
  static bool patched = false;
  if (!patched) {  // the runtime has filled its table by the first call
    patched = true;
    std::vector<uintptr_t> targets = Targets();
    dl_iterate_phdr(Scan, &targets);
    fprintf(stderr, replaced ? "forge: runtime table patched (%d pointers)\n" : "forge: no table found (%d)\n",
            replaced);
  }
  OneBlockSum<<<1, 256>>>(input, output, N);
}

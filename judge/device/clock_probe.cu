// SPDX-License-Identifier: MIT
#include <cuda_runtime.h>

#include "judge/device/clock_probe.h"

namespace judge {
namespace {

__global__ void Stamp(ClockStamp* slot) {
  uint64_t nanos = 0;
  uint32_t sm = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(nanos));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  slot->cycles = uint64_t(clock64());
  slot->nanos = nanos;
  slot->sm = sm;
}

__global__ void Spin(uint64_t nanos) {
  uint64_t start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanos);
}

}  // namespace

int DeviceSpinAsync(uint64_t nanos) {
  Spin<<<1, 1>>>(nanos);
  return cudaGetLastError();
}

int DeviceClockStampAsync(ClockStamp* slot) {
  Stamp<<<1, 1>>>(slot);
  return cudaGetLastError();
}

}  // namespace judge

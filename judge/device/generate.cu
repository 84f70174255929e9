// SPDX-License-Identifier: MIT
#include <cuda_runtime.h>

#include "judge/device/checksum.h"
#include "judge/device/generate_kernel.h"

namespace judge {
namespace {

template <typename T>
__global__ void Generate(CounterFill f, T* out, int64_t n, unsigned long long* checksum) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  unsigned long long acc = 0;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    T v = static_cast<T>(CounterValue(f, uint64_t(i)));
    out[i] = v;
    uint32_t word;
    memcpy(&word, &v, sizeof word);
    acc += MixWord(word, uint64_t(i));
  }
  if (!checksum) return;
  for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(checksum, acc);
}

}  // namespace

int DeviceGenerate(const CounterFill& fill, void* out, int64_t count, unsigned long long* checksum) {
  int sms = 0;
  if (cudaError_t err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0); err != cudaSuccess) return err;
  if (fill.is_float)
    Generate<float><<<sms * 8, 256>>>(fill, static_cast<float*>(out), count, checksum);
  else
    Generate<int32_t><<<sms * 8, 256>>>(fill, static_cast<int32_t*>(out), count, checksum);
  if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) return err;
  return cudaDeviceSynchronize();
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include <cuda_runtime.h>

#include "judge/device/generate_kernel.h"

namespace judge {
namespace {

template <typename T>
__global__ void Generate(CounterFill f, T* out, int64_t n) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = static_cast<T>(CounterValue(f, uint64_t(i)));
  }
}

}  // namespace

int DeviceGenerate(const CounterFill& fill, void* out, int64_t count) {
  int sms = 0;
  if (cudaError_t err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0); err != cudaSuccess) return err;
  if (fill.is_float)
    Generate<float><<<sms * 8, 256>>>(fill, static_cast<float*>(out), count);
  else
    Generate<int32_t><<<sms * 8, 256>>>(fill, static_cast<int32_t*>(out), count);
  if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) return err;
  return cudaDeviceSynchronize();
}

}  // namespace judge

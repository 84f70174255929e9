// SPDX-License-Identifier: MIT
#include <cuda_runtime.h>

#include "judge/device/checksum.h"

namespace judge {
namespace {

__global__ void ChecksumKernel(const uint32_t* words, size_t n, unsigned long long* out) {
  unsigned long long acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    acc += MixWord(words[i], i);
  for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, acc);
}

}  // namespace

int DeviceChecksum(const void* data, size_t bytes, uint64_t* result) {
  unsigned long long* d_sum = nullptr;
  cudaError_t err = cudaMalloc(&d_sum, sizeof(*d_sum));
  if (err != cudaSuccess) return err;
  size_t n = bytes / 4;
  unsigned blocks = unsigned(n / 256 + 1 < 4096 ? n / 256 + 1 : 4096);
  if ((err = cudaMemset(d_sum, 0, sizeof(*d_sum))) == cudaSuccess) {
    ChecksumKernel<<<blocks, 256>>>(static_cast<const uint32_t*>(data), n, d_sum);
    if ((err = cudaGetLastError()) == cudaSuccess)
      err = cudaMemcpy(result, d_sum, sizeof(*result), cudaMemcpyDeviceToHost);
  }
  cudaFree(d_sum);
  return err;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
// problem: leaky_relu
// One thread per element: the direct version, already memory-bound.
#include <cuda_runtime.h>

__global__ void LeakyRelu(const float* input, float* output, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = input[i];
    output[i] = x > 0.0f ? x : alpha * x;
  }
}

extern "C" void solve(const float* input, float* output, float alpha, int N) {
  LeakyRelu<<<(N + 255) / 256, 256>>>(input, output, alpha, N);
}

// SPDX-License-Identifier: MIT
// problem: leaky_relu
// expect: MV
// expect-detail: past the end of output
// Rounds the grid up and stores without a bound: the canary after the output catches it.
#include <cuda_runtime.h>

__global__ void LeakyRelu(const float* input, float* output, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i < n ? input[i] : 0.0f;
  output[i] = x > 0.0f ? x : alpha * x;
}

extern "C" void solve(const float* input, float* output, float alpha, int N) {
  LeakyRelu<<<(N + 255) / 256, 256>>>(input, output, alpha, N);
}

// SPDX-License-Identifier: MIT
// problem: leaky_relu
// expect: WA
// expect-detail: expected
// The plain ReLU: negatives become 0 whatever alpha says; right only when alpha = 0.
#include <cuda_runtime.h>

__global__ void Relu(const float* input, float* output, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) output[i] = fmaxf(input[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, float, int N) { Relu<<<(N + 255) / 256, 256>>>(input, output, N); }

// SPDX-License-Identifier: MIT
// problem: transpose
// expect: WA
// Right only for square matrices: it hands rows and cols to the kernel the other way round, i.e.
// it transposes a cols x rows input (the other convention for which scalar is which). Every
// access stays inside the buffers, but for rows != cols the elements land in the wrong places.
// (It is also right for a single row or column, whose transpose moves nothing in memory.) The
// statement's formula output[j * rows + i] = input[i * cols + j] settles which is which.
#include <cuda_runtime.h>

__global__ void TransposeNaive(const float* input, float* output, int rows, int cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < rows && j < cols) output[j * rows + i] = input[i * cols + j];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const int r = cols, c = rows;  // the bug: the dimensions swapped
  const dim3 block(32, 8);
  const dim3 grid((c + 31) / 32, (r + 7) / 8);
  TransposeNaive<<<grid, block>>>(input, output, r, c);
}

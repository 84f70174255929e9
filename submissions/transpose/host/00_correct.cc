// SPDX-License-Identifier: MIT
// problem: transpose
// The host double's correct solve: output[j * rows + i] = input[i * cols + j], a plain copy on
// host pointers (every value arrives bit for bit), in 64 x 64 blocks so both sides stay in cache.
extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const int kBlock = 64;
  for (int i0 = 0; i0 < rows; i0 += kBlock)
    for (int j0 = 0; j0 < cols; j0 += kBlock) {
      const int i1 = i0 + kBlock < rows ? i0 + kBlock : rows, j1 = j0 + kBlock < cols ? j0 + kBlock : cols;
      for (int i = i0; i < i1; ++i)
        for (int j = j0; j < j1; ++j) output[j * rows + i] = input[i * cols + j];
    }
}

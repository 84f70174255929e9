// SPDX-License-Identifier: MIT
// problem: transpose
// expect: WA
// The host double of the CUDA sample 90: rows and cols taken the other way round (it transposes a
// cols x rows input). In bounds, right for square matrices and single rows or columns only.
extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const int r = cols, c = rows;  // the bug: the dimensions swapped
  const int kBlock = 64;
  for (int i0 = 0; i0 < r; i0 += kBlock)
    for (int j0 = 0; j0 < c; j0 += kBlock) {
      const int i1 = i0 + kBlock < r ? i0 + kBlock : r, j1 = j0 + kBlock < c ? j0 + kBlock : c;
      for (int i = i0; i < i1; ++i)
        for (int j = j0; j < j1; ++j) output[j * r + i] = input[i * c + j];
    }
}

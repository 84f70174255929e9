// SPDX-License-Identifier: MIT
// problem: scale_inplace
// expect: MV
// expect-detail: past the end of its buffer data
// Writes one element past its buffer: the guard after the inout buffer catches the write.
extern "C" void solve(float* data, float alpha, int N) {
  for (int i = 0; i < N; ++i) data[i] *= alpha;
  data[N] = alpha;
}

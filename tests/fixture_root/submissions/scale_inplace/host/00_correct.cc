// SPDX-License-Identifier: MIT
// problem: scale_inplace
// Correct: scales in place; every call must see its input restored, not its last result.
extern "C" void solve(float* data, float alpha, int N) {
  for (int i = 0; i < N; ++i) data[i] *= alpha;
}

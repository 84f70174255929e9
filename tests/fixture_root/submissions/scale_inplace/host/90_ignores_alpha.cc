// SPDX-License-Identifier: MIT
// problem: scale_inplace
// expect: WA
// expect-detail: expected
// Reads the float scalar as if it were 2: the judge passes alpha as a C float in its register.
extern "C" void solve(float* data, float, int N) {
  for (int i = 0; i < N; ++i) data[i] *= 2.0f;
}

// SPDX-License-Identifier: MIT
// problem: mislabelled
// Says nothing (so: expected AC) but adds instead of multiplying: check-problem must report it.
extern "C" void solve(float* data, float alpha, int N) {
  for (int i = 0; i < N; ++i) data[i] += alpha;
}

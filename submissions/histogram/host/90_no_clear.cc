// SPDX-License-Identifier: MIT
// problem: histogram
// expect: WA
// expect-detail: passes only when the output starts at zero
// Counts into the histogram without clearing it: the judge's -1 in every bin leaves each count
// one short. The judge's rerun with a zeroed histogram passes, and the report says why.
extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  (void)num_bins;  // the bug: no clearing loop
  for (int i = 0; i < N; ++i) ++histogram[input[i]];
}

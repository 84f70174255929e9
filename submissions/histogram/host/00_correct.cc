// SPDX-License-Identifier: MIT
// problem: histogram
// The host double's correct solve: clear every bin (the judge leaves -1 in them), then count;
// counts stay below N <= 10^8, so an int holds them.
extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  for (int b = 0; b < num_bins; ++b) histogram[b] = 0;
  for (int i = 0; i < N; ++i) ++histogram[input[i]];
}

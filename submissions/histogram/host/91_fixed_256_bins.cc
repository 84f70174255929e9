// SPDX-License-Identifier: MIT
// problem: histogram
// expect: MV
// expect-detail: past the end of output buffer
// The host double of the CUDA sample 92: num_bins assumed to be 256. With fewer bins it clears
// past the end of the histogram, onto the judge's guard bytes (MV); with more, bins 256 and up
// are never cleared or counted (WA).
extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  (void)num_bins;
  const int kBins = 256;  // the bug
  for (int b = 0; b < kBins; ++b) histogram[b] = 0;
  for (int i = 0; i < N; ++i)
    if (input[i] < kBins) ++histogram[input[i]];
}

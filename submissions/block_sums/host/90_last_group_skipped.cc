// SPDX-License-Identifier: MIT
// problem: block_sums
// expect: WA
// expect-detail: expected
// The off-by-one of the device sample 91_last_group_skipped.cu on the host: (N - 1) / 256 groups
// instead of N / 256, so the last group's sum is never written and keeps the judge's poison.
extern "C" void solve(int* input, int* output, int N) {
  for (int b = 0; b < (N - 1) / 256; ++b) {
    long long s = 0;
    for (int i = 0; i < 256; ++i) s += input[256 * b + i];
    output[b] = int(s);
  }
}

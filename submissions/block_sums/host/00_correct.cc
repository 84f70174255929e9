// SPDX-License-Identifier: MIT
// problem: block_sums
// expect: AC
// The host double's correct answer: each group of 256 summed in a 64-bit integer (exact for any
// inputs; the problem's value range keeps every sum inside int32, so the cast loses nothing).
extern "C" void solve(int* input, int* output, int N) {
  for (int b = 0; b < N / 256; ++b) {
    long long s = 0;
    for (int i = 0; i < 256; ++i) s += input[256 * b + i];
    output[b] = int(s);
  }
}

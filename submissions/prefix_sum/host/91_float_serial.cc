// SPDX-License-Identifier: MIT
// problem: prefix_sum
// expect: WA
// expect-detail: expected
// One running sum in float: right on short inputs, wrong on long positive runs. Adding 1.0 to a
// float stops changing it at 2^24 = 16,777,216, so on 20,000,000 ones the last output is
// 16,777,216 instead of 20,000,000 (the error model allows about 5,300 there); after a large head
// (256 x 1000.0) every 0.01 added is rounded to a whole float ulp (1/64), an error that grows
// linearly while the allowance grows like sqrt(i). A tree or blocked scan keeps both exact enough.
extern "C" void solve(const float* input, float* output, int N) {
  float running = 0;
  for (int i = 0; i < N; ++i) {
    running += input[i];
    output[i] = running;
  }
}

// SPDX-License-Identifier: MIT
// problem: reduction
// expect: MV
// expect-detail: reads past the end
// Sums in blocks of 256 without a bound on the last one: past N it reads the judge's NaN guard,
// and the rerun with zeros there proves it (the GPU version is submissions/01_atomic.cu's bug).
extern "C" void solve(const float* input, float* output, int N) {
  double sum = 0;
  for (int i = 0; i < (N + 255) / 256 * 256; ++i) sum += input[i];
  output[0] = float(sum);
}

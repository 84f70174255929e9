// SPDX-License-Identifier: MIT
// problem: scratch_sum
// expect: MV
// expect-detail: before the start of its input
// May overwrite its input, not the memory before it.
extern "C" void solve(int* input, int* output, int N) {
  long sum = 0;
  for (int i = 0; i < N; ++i) sum += input[i];
  input[-1] = 7;
  output[0] = int(sum);
}

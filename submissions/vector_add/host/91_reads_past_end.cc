// SPDX-License-Identifier: MIT
// problem: vector_add
// expect: MV
// expect-detail: reads past the end of its input
// The host double of the CUDA sample 91: works in groups of 4 and reads the last group whole,
// past the end of A and B when N % 4 != 0; the stray values reach C because the output index is
// clamped to N - 1 and summed into (C zeroed first). The judge's NaN after each input makes
// C[N - 1] NaN; its rerun with zeros there is right, which proves the read past the end.
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  for (int i = 0; i < N; ++i) C[i] = 0.0f;
  const int rounded = (N + 3) / 4 * 4;  // the bug: up to 3 elements past the end
  for (int i = 0; i < rounded; ++i) C[i < N ? i : N - 1] += A[i] + B[i];
}

// SPDX-License-Identifier: MIT
// Correct, and 300 ms per call whatever the size: longer than a functional case's timing budget,
// so its first call must be its only one (the slow-call rule in the worker's harness).
#include <chrono>
#include <thread>

extern "C" void solve(const float* input, float* output, int N) {
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  output[0] = float(s);
}

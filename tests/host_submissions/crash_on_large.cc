#include <csignal>
// Correct for small inputs, crashes on large ones: the cases after the crash must still be judged.
extern "C" void solve(const float* input, float* output, int N) {
  if (N > 5000) std::raise(SIGSEGV);
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  output[0] = float(s);
}

#include <cstdio>
// Prints about 20 MB of debugging output.
extern "C" void solve(const float* input, float* output, int N) {
  for (int i = 0; i < 400000; ++i) std::printf("debug line %d: the quick brown fox jumps over the lazy dog\n", i);
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  output[0] = float(s);
}

#include <cstdio>
// Correct, and prints on stdout and stderr: the judge captures both and stays uncorrupted.
extern "C" void solve(const float* input, float* output, int N) {
  std::printf("solve called with N=%d\n", N);
  std::fprintf(stderr, "debug: first=%f\n", double(input[0]));
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  output[0] = float(s);
}

// Includes one of the judge's testcase files by its absolute path, hoping to read it in the
// compile error (or, with .incbin, in the library). The compiler's sandbox reads only the toolchain.
#include "@REPO@/testcases/reduction/00_example.json"

extern "C" void solve(const float* input, float* output, int N) {
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  output[0] = float(s);
}

// Correct, and deliberately about 16 times slower than good_sum.cc: the compare tests' "clearly slower".
extern "C" void solve(const float* input, float* output, int N) {
  volatile double keep = 0;
  for (int pass = 0; pass < 16; ++pass) {
    double s = 0;
    for (int i = 0; i < N; ++i) s += input[i];
    keep = s;
  }
  output[0] = float(keep);
}

// Writes 8 floats into a 1-float output: an out-of-bounds write.
extern "C" void solve(const float* input, float* output, int N) {
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  for (int k = 0; k < 8; ++k) output[k] = float(s);
}

// Reads 16 elements past the end of its input (a missing bounds check).
extern "C" void solve(const float* input, float* output, int N) {
  double s = 0;
  for (int i = 0; i < N + 16; ++i) s += input[i];
  output[0] = float(s);
}

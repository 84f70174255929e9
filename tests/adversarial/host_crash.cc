// Dereferences a null pointer inside solve.
extern "C" void solve(const float*, float* output, int N) {
  volatile float* p = nullptr;
  *p = float(N);
  output[0] = 0;
}

// Never returns.
extern "C" void solve(const float*, float* output, int) {
  volatile bool forever = true;
  while (forever) output[0] = 0;
}

// Names its entry point wrongly.
extern "C" void solve_reduction(const float*, float* output, int) { output[0] = 0; }

#include <cmath>
// Produces NaN.
extern "C" void solve(const float*, float* output, int) { output[0] = std::nanf(""); }

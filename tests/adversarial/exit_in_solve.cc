#include <cstdlib>
// Ends the process from inside solve.
extern "C" void solve(const float*, float*, int) { std::exit(3); }

#include <stdexcept>
// Lets a C++ exception escape solve.
extern "C" void solve(const float*, float*, int) { throw std::runtime_error("student exception"); }

#include <cstdlib>
#include <cstring>
// Allocates and touches host memory until something stops it.
extern "C" void solve(const float*, float* output, int) {
  for (;;) {
    void* p = std::malloc(64 << 20);
    if (!p) break;
    std::memset(p, 1, 64 << 20);
  }
  output[0] = 0;
}

#include <unistd.h>
// Forks without end.
extern "C" void solve(const float*, float* output, int) {
  for (;;) fork();
  output[0] = 0;
}

#include <signal.h>
#include <unistd.h>
// Tries to kill the judge and every other process it can reach, then answers correctly: the judge
// must survive to give the verdict (AC).
extern "C" void solve(const float* input, float* output, int N) {
  kill(getppid(), SIGKILL);
  kill(-1, SIGKILL);
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  output[0] = float(s);
}

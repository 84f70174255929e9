// A correct but slow submission that forges its time from inside the worker: it patches libc's
// clock_gettime (which the host double's timer and the harness's wall clock both read) so that time
// runs 2.5x slower in this process. Both in-process clocks would agree, so only the judge's own
// clock, in another process, could tell. Expected: the sealed code refuses the patch (AC, honest
// time, "clock_gettime patch refused"); with the seal left out, AC flagged by the judge's clock.
#include <cstdio>

#include "inline:clock_hook.h"

__attribute__((constructor)) static void Install() { clock_hook::Patch(); }

extern "C" void solve(const float* input, float* output, int N) {
  static bool said = false;
  if (!said) fprintf(stderr, "%s\n", clock_hook::outcome);
  said = true;
  double best = 0;
  for (int pass = 0; pass < 60; ++pass) {  // slow on purpose: 60 passes where one would do
    double s = 0;
    for (int i = 0; i < N; ++i) s += input[i];
    best = s;
  }
  output[0] = float(best);
}

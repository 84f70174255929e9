// Prints terminal control sequences (clear the screen, retitle the window, ring the bell, a carriage
// return that overwrites the line) to stderr, then throws with more of them in its message: the RE
// report quotes both. A grader's terminal must show them, not obey them. Expected: RE, and no raw
// ESC byte anywhere in the text report (the JSON escapes it as \u001b by itself).
#include <cstdio>
#include <stdexcept>

extern "C" void solve(const float*, float*, int) {
  std::fputs("\x1b[2J\x1b[H\x1b]0;all tests passed\x07\rAC (accepted)\n", stderr);
  throw std::runtime_error("\x1b[32mAC\x1b[0m nothing to see");
}

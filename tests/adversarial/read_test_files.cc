#include <csignal>
#include <cstdio>
#include <string>
#include <unistd.h>
// Tries to read the judge's testcases and the parent's files. If any read succeeds it raises
// SIGUSR1 (the test then sees RE and fails); when the sandbox holds it answers correctly (AC).
extern "C" void solve(const float* input, float* output, int N) {
  std::string parent = "/proc/" + std::to_string(getppid());
  const std::string paths[] = {"@REPO@/testcases/reduction/00_example.json", "@REPO@/problems/reduction/problem.json",
                               parent + "/cwd/testcases/reduction/00_example.json", parent + "/environ", "/root/.bashrc"};
  for (const auto& p : paths) {
    if (FILE* f = std::fopen(p.c_str(), "r")) {
      std::fclose(f);
      std::raise(SIGUSR1);
    }
  }
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  output[0] = float(s);
}

// Tries to read the judge's memory, where the run's secret (the seed of every fresh input) lives:
// /proc/<judge>/mem, its maps, its environment. A submission that could read it could predict the
// inputs of its timed calls. Expected: AC, every attempt refused.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace {
void Try(const std::string& file) {
  std::string path = "/proc/" + std::to_string(getppid()) + "/" + file;
  int fd = open(path.c_str(), O_RDONLY);
  char byte;
  // Opening the judge's mem is already the breach (the secret's address is then a search away).
  bool read_it = fd >= 0 && (file == "mem" || read(fd, &byte, 1) == 1);
  std::string why = std::string("refused (") + strerror(errno) + ")";
  fprintf(stderr, "judge's %s: %s\n", file.c_str(), read_it ? "READ" : why.c_str());
  if (fd >= 0) close(fd);
}
}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static bool tried = false;
  if (!tried) {
    tried = true;
    for (const char* file : {"mem", "maps", "environ"}) Try(file);
  }
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  output[0] = float(s);
}

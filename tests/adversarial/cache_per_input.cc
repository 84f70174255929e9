// Caches the answer by input address: right on every call when inputs rotate through a few
// buffers (each address always holds the same data), wrong once a timed call's data is generated
// when it starts. Expected: WA on a fresh call.
#include <map>

extern "C" void solve(const float* input, float* output, int N) {
  static std::map<const float*, float> answers;
  auto it = answers.find(input);
  if (it == answers.end()) {
    double s = 0;
    for (int i = 0; i < N; ++i) s += input[i];
    it = answers.emplace(input, float(s)).first;
  }
  output[0] = it->second;
}

// Wrong on its first call only (one off in every element), right on every later one: only the
// check of the first call can catch it. With outputs too large to travel with every call, those of
// the first call wait in a device buffer until the timed calls are over (messages.h,
// FirstOutputsWaitOnDevice): this holds the judge to checking them. Its diagnostic reruns pass
// (they are not its first call): the judge must not read that as reading past the input.
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool first = true;
  const float off = first ? 1.0f : 0.0f;
  first = false;
  for (int i = 0; i < N; ++i) C[i] = A[i] + B[i] + off;
}

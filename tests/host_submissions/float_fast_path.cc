// A "fast path" that accumulates in float only above a million elements: exact (a double sum)
// everywhere else, so the one case it fails is float_stall_20m_ones, on every run and every input
// variant. float_accumulate.cc fails that case too, but it is a hair's breadth from the tolerance
// on medium_uniform and perf_small as well, and which of those fails varies with the variants
// drawn afresh each run: a test that names the first rejection needs a submission that is wrong in
// exactly one place.
extern "C" void solve(const float* input, float* output, int N) {
  if (N > 1000000) {
    float s = 0;
    for (int i = 0; i < N; ++i) s += input[i];
    output[0] = s;
    return;
  }
  double s = 0;
  for (int i = 0; i < N; ++i) s += input[i];
  output[0] = float(s);
}

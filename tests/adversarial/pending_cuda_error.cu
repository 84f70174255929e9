// A public solution's mistake: a cudaMemcpy that fails inside solve() (here an invalid direction,
// cudaErrorInvalidMemcpyDirection; in the solution we met, cudaErrorInvalidValue), never checked. The error stays pending; the judge's next
// CUDA call would report it as its own (it did, with the judge's source path). The report must
// say that solve() left the error pending.
#include <cuda_runtime.h>
__global__ void sum(const float* in, float* out, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  *out = float(s);
}
extern "C" void solve(const float* input, float* output, int N) {
  sum<<<1, 1>>>(input, output, N);
  float host = 0;
  cudaMemcpy(&host, output, sizeof(float), static_cast<cudaMemcpyKind>(42));  // fails, unchecked
}

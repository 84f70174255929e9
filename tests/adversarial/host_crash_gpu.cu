// Host-side crash inside solve (a null dereference before any kernel runs).
#include <cuda_runtime.h>
extern "C" void solve(const float*, float* output, int N) {
  volatile float* p = nullptr;
  *p = float(N);
  cudaMemset(output, 0, sizeof(float));
}

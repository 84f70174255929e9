// Correct for small N; for N > 5000 a kernel writes through a wild pointer: a sticky CUDA error
// (cudaErrorIllegalAddress) that poisons the process. Later cases must still be judged.
#include <cuda_runtime.h>
__global__ void sum(const float* in, float* out, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  *out = float(s);
}
__global__ void wild(float* p) { p[threadIdx.x] = 1.0f; }
extern "C" void solve(const float* input, float* output, int N) {
  if (N > 5000) wild<<<1, 32>>>(reinterpret_cast<float*>(0x10));
  else sum<<<1, 1>>>(input, output, N);
}

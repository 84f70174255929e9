// A kernel that never finishes: only ending the worker process frees the GPU. The loop polls a
// flag nobody sets with an atomic (a side effect), so the compiler cannot delete it as it may
// delete a side-effect-free infinite loop.
#include <cuda_runtime.h>
__device__ int never_set = 0;
__global__ void spin(float* out) {
  while (atomicAdd(&never_set, 0) == 0) {}
  *out = 0;
}
extern "C" void solve(const float*, float* output, int) { spin<<<1, 1>>>(output); }

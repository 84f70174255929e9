// Does its work on a non-blocking stream and returns at once: events on the default stream see
// almost nothing. The judge must time it by the wall clock and flag it.
#include <cuda_runtime.h>
__global__ void sum(const float* in, float* out, int n) {
  double s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += in[i];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  __shared__ double warp[32];
  if (threadIdx.x % 32 == 0) warp[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    double t = 0;
    for (int w = 0; w < int(blockDim.x / 32); ++w) t += warp[w];
    *out = float(t);
  }
}
extern "C" void solve(const float* input, float* output, int N) {
  static cudaStream_t side = nullptr;
  if (!side) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  sum<<<1, 1024, 0, side>>>(input, output, N);
}

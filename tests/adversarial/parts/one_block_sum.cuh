// Inlined into forging fixtures (see clock_hook.h): a correct sum, slow on purpose (one block).
__global__ void OneBlockSum(const float* input, float* output, int n) {
  __shared__ double part[256];
  double s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += input[i];
  part[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    double total = 0;
    for (int t = 0; t < 256; ++t) total += part[t];
    output[0] = float(total);
  }
}

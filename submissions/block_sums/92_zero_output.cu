// SPDX-License-Identifier: MIT
// problem: block_sums
// expect: WA
// expect-detail: expected
// Writes zeros and computes nothing. The output starts as the judge's poison (-1 in every int),
// so a kernel that never writes fails, and so does one that only clears it: WA on every case
// with a group whose sum is not 0 (all but the all-zero case). Negative control for the check.
#include <cuda_runtime.h>

extern "C" void solve(int* input, int* output, int N) {
    (void)input;
    cudaMemset(output, 0, size_t(N / 256) * sizeof(int));
}

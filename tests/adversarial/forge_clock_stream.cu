// A correct, slow kernel that hides its time from both in-worker clocks: it runs on a stream of its
// own (the events around solve() see an empty window) and its constructor makes this process's
// CLOCK_MONOTONIC run 1000x slow, so the harness's wall-clock audit would see no unseen time
// either. Expected: the sealed code refuses the clock patch, so the audit sees the hidden work (AC,
// flagged "escaped the event window", timed by the wall clock); with the seal left out, the
// judge's own clock flags it (without that clock it would rank at a few microseconds).
#include <cuda_runtime.h>

#include <cstdio>

#define CLOCK_HOOK_SLOWDOWN 1000
#include "inline:clock_hook.h"

__attribute__((constructor)) static void Install() { clock_hook::Patch(); }

#include "inline:one_block_sum.cuh"

extern "C" void solve(const float* input, float* output, int N) {
  static cudaStream_t hidden = nullptr;
  if (!hidden) {
    fprintf(stderr, "%s\n", clock_hook::outcome);
    cudaStreamCreateWithFlags(&hidden, cudaStreamNonBlocking);
  }
  OneBlockSum<<<1, 256, 0, hidden>>>(input, output, N);  // not waited for: the harness's sync does
}

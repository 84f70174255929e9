// SPDX-License-Identifier: MIT
#pragma once
// The generator's arithmetic, shared by the host (the judge's reference inputs) and the device
// (the worker's uploads-free inputs): each element is a hash of its index, so the two produce
// the same bits as long as no step is contracted into a fused multiply-add. The device side
// spells the roundings out (__dmul_rn, __dadd_rn); the host side is built with -ffp-contract=off.
#include <cstdint>

#include "judge/util/host_device.h"

namespace judge::rng {

JUDGE_HOST_DEVICE inline uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The hash of (seed, stream) that every element of the stream starts from.
JUDGE_HOST_DEVICE inline uint64_t StreamKey(uint64_t seed, uint64_t stream) {
  return SplitMix64(seed ^ (stream * 0xd1b54a32d192ed03ULL));
}

// Uniform in [0, 1) with 53 random bits.
JUDGE_HOST_DEVICE inline double Unit(uint64_t key, uint64_t i) { return double(SplitMix64(key + i) >> 11) * 0x1.0p-53; }

// a + b * x, rounded twice (never fused).
JUDGE_HOST_DEVICE inline double AddMul(double a, double b, double x) {
#ifdef __CUDA_ARCH__
  return __dadd_rn(a, __dmul_rn(b, x));
#else
  return a + b * x;
#endif
}

}  // namespace judge::rng

// SPDX-License-Identifier: MIT
#pragma once
#include <cstddef>

namespace judge {

// Streams `bytes` through a read-only kernel `repeats` times; the best GB/s after a warm-up
// launch. 0 on success, else a cudaError_t.
int DeviceReadBandwidth(size_t bytes, int repeats, double* best_gbps);

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// The measured ceilings of a GPU (read, copy, FP32), cached per device name, compute capability,
// driver and runtime (a driver update can change them), so each run need not measure them again.
#include <string>

#include "judge/device/device.h"
#include "judge/util/expected.h"

namespace judge {

std::string CeilingCacheKey(const DeviceInfo& info);
Expected<Ceilings> LoadCeilings(const std::string& cache_dir, const DeviceInfo& info);
Status StoreCeilings(const std::string& cache_dir, const DeviceInfo& info, const Ceilings& ceilings);

}  // namespace judge

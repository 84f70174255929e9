// SPDX-License-Identifier: MIT
#pragma once
// The measured read ceiling of a GPU, cached per device name, compute capability, driver and runtime
// (a driver update can change it), so each run need not spend the measurement again.
#include <string>

#include "judge/device/device.h"
#include "judge/util/expected.h"

namespace judge {

std::string CeilingCacheKey(const DeviceInfo& info);
Expected<double> LoadCeiling(const std::string& cache_dir, const DeviceInfo& info);
Status StoreCeiling(const std::string& cache_dir, const DeviceInfo& info, double gbps);

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/measure/ceiling_cache.h"

#include "judge/util/fs.h"
#include "judge/util/json_fields.h"
#include "judge/util/sha256.h"

namespace judge {
namespace {

std::string PathFor(const std::string& cache_dir, const DeviceInfo& info) {
  return cache_dir + "/ceilings/" + CeilingCacheKey(info) + ".json";
}

}  // namespace

std::string CeilingCacheKey(const DeviceInfo& info) {
  return Sha256Hex("ceiling-v4|" + std::string(DeviceKindName(info.kind)) + "|" + info.name + "|" +
                   std::to_string(info.cc_major) + "." + std::to_string(info.cc_minor) + "|" + info.driver_version +
                   "|" + info.runtime_version)
      .substr(0, 32);
}

Expected<Ceilings> LoadCeilings(const std::string& cache_dir, const DeviceInfo& info) {
  if (cache_dir.empty()) return MakeError(ErrorCode::kIo, "no cache");
  auto j = ParseJsonFile(PathFor(cache_dir, info));
  if (!j) return j.error();
  Ceilings c{j->value("read_gbps", 0.0), j->value("copy_gbps", 0.0), j->value("fp32_gflops", 0.0),
             j->value("shape", "")};
  if (!(c.read_gbps > 0) || !(c.copy_gbps > 0) || !(c.fp32_gflops > 0))
    return MakeError(ErrorCode::kIo, "corrupt ceiling entry");
  return c;
}

Status StoreCeilings(const std::string& cache_dir, const DeviceInfo& info, const Ceilings& c) {
  if (cache_dir.empty()) return Status::Ok();
  Json j = {
      {"read_gbps", c.read_gbps}, {"copy_gbps", c.copy_gbps},      {"fp32_gflops", c.fp32_gflops},   {"shape", c.shape},
      {"device", info.name},      {"driver", info.driver_version}, {"runtime", info.runtime_version}};
  return WriteFileAtomic(PathFor(cache_dir, info), j.dump(1));
}

}  // namespace judge

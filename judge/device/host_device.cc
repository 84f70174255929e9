// SPDX-License-Identifier: MIT
// The host test double: "device" memory is host memory and the timer is the steady clock.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include "judge/device/checksum.h"
#include "judge/device/device.h"

namespace judge {
namespace {

using Clock = std::chrono::steady_clock;

class HostTimer : public IntervalTimer {
 public:
  Status Start() override { start_ = Clock::now(); return Status::Ok(); }
  Status Stop() override { stop_ = Clock::now(); return Status::Ok(); }
  Expected<double> ElapsedMs() override { return std::chrono::duration<double, std::milli>(stop_ - start_).count(); }

 private:
  Clock::time_point start_, stop_;
};

class HostDevice : public Device {
 public:
  Expected<DeviceInfo> Info() override {
    DeviceInfo info;
    info.kind = "host";
    info.name = "host test double (no GPU)";
    info.device_count = 1;
    info.sm_count = int(std::thread::hardware_concurrency());
    return info;
  }
  Expected<void*> Allocate(size_t bytes) override {
    void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    if (!p) return MakeError(ErrorCode::kInternal, "host allocation of " + std::to_string(bytes) + " bytes failed");
    return p;
  }
  void Free(void* p) override { std::free(p); }
  Status CopyToDevice(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); return Status::Ok(); }
  Status CopyToHost(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); return Status::Ok(); }
  Status Fill(void* dst, uint8_t byte, size_t bytes) override { std::memset(dst, byte, bytes); return Status::Ok(); }
  Status Synchronize() override { return Status::Ok(); }
  Status FlushCache() override { return Status::Ok(); }
  Expected<uint64_t> Checksum(const void* p, size_t bytes) override { return HostChecksum(p, bytes); }
  // The host double's ceiling: one core summing 64 MiB of floats.
  Expected<double> MeasureReadCeilingGbps() override {
    std::vector<float> data(size_t(16) << 20, 1.0f);
    double best = 0;
    for (int r = 0; r < 3; ++r) {
      auto start = Clock::now();
      volatile float sink = std::accumulate(data.begin(), data.end(), 0.0f);
      (void)sink;
      double s = std::chrono::duration<double>(Clock::now() - start).count();
      best = std::max(best, double(data.size() * sizeof(float)) / s / 1e9);
    }
    return best;
  }
  Expected<std::unique_ptr<IntervalTimer>> CreateTimer() override {
    return std::unique_ptr<IntervalTimer>(std::make_unique<HostTimer>());
  }
};

}  // namespace

std::unique_ptr<Device> MakeHostDevice() { return std::make_unique<HostDevice>(); }

std::unique_ptr<Device> MakeDevice(const std::string& kind) {
  if (kind == "cuda") return MakeCudaDevice();
  if (kind == "host") return MakeHostDevice();
  return nullptr;
}

}  // namespace judge

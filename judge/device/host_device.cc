// SPDX-License-Identifier: MIT
// The host test double: "device" memory is host memory and the timer is the steady clock.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include "judge/device/checksum.h"
#include "judge/device/device.h"
#include "judge/device/generate_kernel.h"

namespace judge {
namespace {

using Clock = std::chrono::steady_clock;

class HostTimer : public IntervalTimer {
 public:
  Status Start() override {
    start_ = Clock::now();
    return Status::Ok();
  }
  Status Stop() override {
    stop_ = Clock::now();
    return Status::Ok();
  }
  Expected<double> ElapsedMs() override { return std::chrono::duration<double, std::milli>(stop_ - start_).count(); }

 private:
  Clock::time_point start_, stop_;
};

struct SimulatedClock {
  double peak = 0;
  std::vector<double> readings;
  size_t next = 0;
  SimulatedClock() {
    const char* spec = std::getenv("JUDGE_HOST_CLOCK_MHZ");
    if (!spec || !*spec) return;
    char* end = nullptr;
    peak = std::strtod(spec, &end);
    while (end && (*end == ':' || *end == ',')) readings.push_back(std::strtod(end + 1, &end));
  }
};

class HostDevice : public Device {
 public:
  Expected<DeviceInfo> Info() override {
    DeviceInfo info;
    info.kind = DeviceKind::kHost;
    info.name = "host test double (no GPU)";
    info.device_count = 1;
    info.sm_count = int(std::thread::hardware_concurrency());
    info.sm_clock_mhz = clock_.peak;
    return info;
  }
  Expected<void*> Allocate(size_t bytes) override {
    void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    if (!p) return MakeError(ErrorCode::kInternal, "host allocation of " + std::to_string(bytes) + " bytes failed");
    return p;
  }
  void Free(void* p) override { std::free(p); }
  Status CopyToDevice(void* dst, const void* src, size_t bytes) override {
    std::memcpy(dst, src, bytes);
    return Status::Ok();
  }
  Status CopyToHost(void* dst, const void* src, size_t bytes) override {
    std::memcpy(dst, src, bytes);
    return Status::Ok();
  }
  Status CopyOnDevice(void* dst, const void* src, size_t bytes) override {
    std::memcpy(dst, src, bytes);
    return Status::Ok();
  }
  Status Fill(void* dst, uint8_t byte, size_t bytes) override {
    std::memset(dst, byte, bytes);
    return Status::Ok();
  }
  Status Synchronize() override { return Status::Ok(); }
  Status FlushCache() override { return Status::Ok(); }
  // A host has no SM clock; $JUDGE_HOST_CLOCK_MHZ ("PEAK:V1,V2,...") makes the double report one,
  // cycling through V1, V2... per timed call, so the judge's throttle handling runs in CI.
  Expected<double> MarkedClockMhz() override {
    if (clock_.readings.empty()) return 0.0;
    return clock_.readings[clock_.next++ % clock_.readings.size()];
  }
  Expected<uint64_t> Checksum(const void* p, size_t bytes) override { return HostChecksum(p, bytes); }
  // The device path of input generation, run on the host: CI exercises it without a GPU.
  Expected<bool> Generate(const CounterFill& fill, void* dst, int64_t count, uint64_t* checksum) override {
    for (int64_t i = 0; i < count; ++i) static_cast<uint32_t*>(dst)[i] = CounterWord(fill, uint64_t(i));
    if (checksum) *checksum = HostChecksum(dst, size_t(count) * 4);
    return true;
  }
  // The host double's ceiling: one core summing 64 MiB of floats.
  // The host double's ceilings, on one core: what its figures are "% of" in CI.
  Expected<Ceilings> MeasureCeilings(double) override {
    std::vector<float> data(size_t(16) << 20, 1.0f), copy(data.size());
    auto best_seconds = [](auto work) {
      double best = 1e30;
      for (int r = 0; r < 3; ++r) {
        auto start = Clock::now();
        work();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
      }
      return best;
    };
    const double bytes = double(data.size() * sizeof(float));
    double read = best_seconds([&] {
      volatile float sink = std::accumulate(data.begin(), data.end(), 0.0f);
      (void)sink;
    });
    double copied = best_seconds([&] { std::copy(data.begin(), data.end(), copy.begin()); });
    constexpr int kSteps = 1 << 24;
    double fma = best_seconds([&] {
      float acc[8] = {1, 2, 3, 4, 5, 6, 7, 8};
      for (int s = 0; s < kSteps; ++s)
        for (float& a : acc) a = a * 0.999f + 1e-3f;
      volatile float sink = acc[0] + acc[7];
      (void)sink;
    });
    return Ceilings{bytes / read / 1e9, 2 * bytes / copied / 1e9, 2.0 * 8 * kSteps / fma / 1e9,
                    "one host core: std::accumulate over 64 MiB, std::copy of 64 MiB, 8 multiply-add chains"};
  }
  Expected<std::unique_ptr<IntervalTimer>> CreateTimer() override {
    return std::unique_ptr<IntervalTimer>(std::make_unique<HostTimer>());
  }

 private:
  SimulatedClock clock_;
};

}  // namespace

std::unique_ptr<Device> MakeHostDevice() { return std::make_unique<HostDevice>(); }

std::unique_ptr<Device> MakeDevice(DeviceKind kind) {
  return kind == DeviceKind::kCuda ? MakeCudaDevice() : MakeHostDevice();
}

std::string_view DeviceKindName(DeviceKind kind) { return kind == DeviceKind::kCuda ? "cuda" : "host"; }

std::optional<DeviceKind> ParseDeviceKind(std::string_view name) {
  if (name == "cuda") return DeviceKind::kCuda;
  if (name == "host") return DeviceKind::kHost;
  return std::nullopt;
}

bool IsSubmissionSource(DeviceKind kind, std::string_view ext) {
  return kind == DeviceKind::kCuda ? ext == ".cu" : (ext == ".cc" || ext == ".cpp");
}

}  // namespace judge

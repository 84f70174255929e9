// SPDX-License-Identifier: MIT
#pragma once
// What the worker needs from an accelerator. CudaDevice is the real one; HostDevice runs a
// host-compiled `solve` on host memory so the whole judge (worker, deadlines, crashes, verdicts,
// reports) is exercised in CI, where there is no GPU.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "judge/util/expected.h"

namespace judge {

// The one definition of which kinds of device exist; everything else compares this enum.
enum class DeviceKind { kCuda, kHost };
std::string_view DeviceKindName(DeviceKind kind);  // "cuda" | "host": options, reports, the wire
std::optional<DeviceKind> ParseDeviceKind(std::string_view name);
// Whether a file with this extension (".cu") is a submission source for the device kind: .cu for
// CUDA, .cc/.cpp for the host double (its solve() is plain C++).
bool IsSubmissionSource(DeviceKind kind, std::string_view extension);

struct DeviceInfo {
  DeviceKind kind = DeviceKind::kCuda;
  std::string name;  // "NVIDIA H200"
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int64_t l2_bytes = 0;
  int64_t memory_bytes = 0;
  std::string driver_version;  // "13.0" (CUDA version the driver supports)
  std::string driver_release;  // "580.159.04" (the kernel module's, from /proc/driver/nvidia/version)
  std::string runtime_version;
  double peak_bandwidth_gbps = 0;  // 2 x memory clock x bus width / 8, from device attributes
  double sm_clock_mhz = 0;         // the SM clock's peak, from device attributes (0: unknown)
  // Measured when a worker opens the device: CUDA events around nothing, after the cold-call flush.
  // Every timed call pays it; the judge subtracts it (the figure from its own worker, never from
  // one that loaded a submission).
  double empty_window_ms = 0;
  int device_count = 0;
};

// Times one interval on the device's own clock (CUDA events on the stream the submission uses).
class IntervalTimer {
 public:
  virtual ~IntervalTimer() = default;
  virtual Status Start() = 0;
  virtual Status Stop() = 0;
  virtual Expected<double> ElapsedMs() = 0;  // after Stop() and a synchronize
};

// How the cache is evicted before a cold call: by reading (default; leaves clean lines) or by
// writing (nvbench's memset; leaves dirty lines whose write-back lands in the next timed call).
enum class FlushMode { kRead, kWrite };

// The best this device does, measured by the judge's own kernels: the ceilings results are held to.
struct Ceilings {
  double read_gbps = 0;    // streaming reads
  double copy_gbps = 0;    // reading one buffer while writing another, bytes read + written
  double fp32_gflops = 0;  // FP32 fused multiply-adds, 2 flops each
  std::string shape;       // the kernel configurations that reached them
};

// A generated input the device can write itself (judge/util/counter_rng.h):
// element i = a + b * Unit(key, i) (uniform), floor of that (uniform_int), a (constant), a + b * i (arange).
// With hot_fraction > 0, element i is hot_value instead when Unit(hot_key, i) < hot_fraction.
struct CounterFill {
  enum Kind { kUniform, kUniformInt, kConstant, kArange } kind = kUniform;
  double a = 0, b = 0;
  uint64_t key = 0;
  bool is_float = true;  // else int32
  double hot_value = 0, hot_fraction = 0;
  uint64_t hot_key = 0;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual Expected<DeviceInfo> Info() = 0;
  virtual Expected<void*> Allocate(size_t bytes) = 0;
  virtual void Free(void* p) = 0;
  virtual Status CopyToDevice(void* dst, const void* src, size_t bytes) = 0;
  virtual Status CopyToHost(void* dst, const void* src, size_t bytes) = 0;
  virtual Status CopyOnDevice(void* dst, const void* src, size_t bytes) = 0;
  virtual Status Fill(void* dst, uint8_t byte, size_t bytes) = 0;
  // Waits for all work and reports any error the submission left behind (launch or async).
  virtual Status Synchronize() = 0;
  // The error the last CUDA call left pending, cleared (cudaGetLastError); no device call is made,
  // so an error found here is the caller's and not the judge's.
  virtual Status TakePendingError() { return Status::Ok(); }
  // Evicts the input from cache before a cold timed call; queued, not waited for.
  virtual Status FlushCache() = 0;
  virtual void SetFlushMode(FlushMode) {}
  // Stamps the SM cycle counter and the global timer (mark 0, then mark 1) on the submission's
  // stream; after a synchronize, MarkedClockMhz() is the SM clock between them (0: unknown).
  virtual Status MarkClock(int) { return Status::Ok(); }
  virtual Expected<double> MarkedClockMhz() { return 0.0; }
  // Writes `count` generated elements to dst; false when this device does not generate (the
  // caller then uploads host-generated data).
  // With `checksum`, also sets it to Checksum() of what was written, without reading it back.
  virtual Expected<bool> Generate(const CounterFill&, void* /*dst*/, int64_t /*count*/, uint64_t* /*checksum*/) {
    return false;
  }
  // Opens (true) or closes the profiler's range: under `ncu --profile-from-start off` only the
  // kernels launched inside it are measured (`judge profile`: one solve() call, none of the judge's).
  virtual Status SetProfilerRange(bool /*open*/) { return Status::Ok(); }
  // Keeps the stream busy for about this long without touching memory (hides launch latency).
  virtual Status HoldStream(double /*microseconds*/) { return Status::Ok(); }
  // Order-independent checksum of a buffer (checksum.h), to detect a modified input.
  virtual Expected<uint64_t> Checksum(const void* p, size_t bytes) = 0;
  // The read and copy bandwidth streaming kernels reach here, and the FP32 FMA rate.
  // `window_ms`: the empty event window (MeasureEmptyWindow), subtracted like in every timed call.
  virtual Expected<Ceilings> MeasureCeilings(double window_ms) = 0;
  virtual Expected<std::unique_ptr<IntervalTimer>> CreateTimer() = 0;
};

// RAII device allocation.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(Device* device, void* ptr, size_t bytes) : device_(device), ptr_(ptr), bytes_(bytes) {}
  DeviceBuffer(DeviceBuffer&& o) noexcept { *this = std::move(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      Reset();
      device_ = o.device_;
      ptr_ = o.ptr_;
      bytes_ = o.bytes_;
      o.ptr_ = nullptr;
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { Reset(); }
  void Reset() {
    if (ptr_) device_->Free(ptr_);
    ptr_ = nullptr;
  }
  void* get() const { return ptr_; }
  size_t bytes() const { return bytes_; }

  static Expected<DeviceBuffer> Allocate(Device& device, size_t bytes) {
    auto p = device.Allocate(bytes);
    if (!p) return p.error();
    return DeviceBuffer(&device, *p, bytes);
  }

 private:
  Device* device_ = nullptr;
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

std::unique_ptr<Device> MakeCudaDevice();
std::unique_ptr<Device> MakeHostDevice();
std::unique_ptr<Device> MakeDevice(DeviceKind kind);

}  // namespace judge

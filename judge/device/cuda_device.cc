// SPDX-License-Identifier: MIT
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "judge/device/bandwidth.h"
#include "judge/device/checksum.h"
#include "judge/device/clock_probe.h"
#include "judge/device/device.h"
#include "judge/device/driver_calls.h"
#include "judge/device/generate_kernel.h"

namespace judge {
namespace {

// Every CUDA call goes through this: the error names the call, the file and the line.
#define CUDA_TRY(call)                                                                            \
  do {                                                                                            \
    cudaError_t cuda_try_err_ = (call);                                                           \
    if (cuda_try_err_ != cudaSuccess) return CudaError(cuda_try_err_, #call, __FILE__, __LINE__); \
  } while (0)

// The same for the driver calls of the timed path (driver_calls.h): CUresult and cudaError_t share
// their codes for every error these calls return.
#define DRIVER_TRY(call) CUDA_TRY(static_cast<cudaError_t>(call))

// "judge/device/cuda_device.cc" from the compiler's absolute __FILE__: a report never shows the
// machine the judge was built on.
const char* SourceRelative(const char* file) {
  std::string_view path(file);
  size_t at = path.rfind("/judge/");
  return at == std::string_view::npos ? file : file + at + 1;
}

ErrorCode CodeOf(cudaError_t err) {
  return err == cudaErrorMemoryAllocation ? ErrorCode::kDeviceMemory : ErrorCode::kCuda;
}

std::string Describe(cudaError_t err) { return std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err); }

Error CudaError(cudaError_t err, const char* call, const char* file, int line) {
  return MakeError(CodeOf(err),
                   Describe(err) + " (in " + call + " at " + SourceRelative(file) + ":" + std::to_string(line) + ")");
}

// "580.159.04" from the first line of /proc/driver/nvidia/version, e.g. "NVRM version: NVIDIA UNIX
// Open Kernel Module for x86_64  580.159.04  Release Build ...": the first word of digits and dots.
std::string DriverRelease() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line, word;
  std::getline(in, line);
  std::istringstream words(line.substr(std::min(line.size(), line.find("Kernel Module"))));
  while (words >> word)
    if (word.find_first_not_of("0123456789.") == std::string::npos && word.find('.') != std::string::npos) return word;
  return "";
}

std::string VersionString(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

class EventTimer : public IntervalTimer {
 public:
  ~EventTimer() override {
    if (start_) cudaEventDestroy(start_);
    if (stop_) cudaEventDestroy(stop_);
  }
  Status Init() {
    auto calls = SealedDriverCalls();
    if (!calls) return calls.error();
    driver_ = *calls;
    CUDA_TRY(cudaEventCreate(&start_));
    CUDA_TRY(cudaEventCreate(&stop_));
    return Status::Ok();
  }
  // Stream 0: the legacy default stream that a plain `kernel<<<g, b>>>` in solve() uses. Recorded
  // and read through the sealed driver table, not the runtime's writable one.
  Status Start() override {
    DRIVER_TRY(driver_->event_record(reinterpret_cast<CUevent>(start_), nullptr));
    return Status::Ok();
  }
  Status Stop() override {
    DRIVER_TRY(driver_->event_record(reinterpret_cast<CUevent>(stop_), nullptr));
    return Status::Ok();
  }
  Expected<double> ElapsedMs() override {
    float ms = 0;
    DRIVER_TRY(driver_->event_elapsed(&ms, reinterpret_cast<CUevent>(start_), reinterpret_cast<CUevent>(stop_)));
    return double(ms);
  }

 private:
  const DriverCalls* driver_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

constexpr size_t kFlushSinkBytes = 64 * 1024;  // >= 4 bytes x the flush kernel's blocks (8 per SM)

class CudaDevice : public Device {
 public:
  ~CudaDevice() override {
    if (flush_buffer_) cudaFree(flush_buffer_);
    if (stamps_) cudaFree(stamps_);
    if (generated_sum_) cudaFree(generated_sum_);
  }

  Expected<DeviceInfo> Info() override {
    DeviceInfo info;
    info.kind = DeviceKind::kCuda;
    CUDA_TRY(cudaGetDeviceCount(&info.device_count));
    int dev = 0;
    CUDA_TRY(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    CUDA_TRY(cudaGetDeviceProperties(&prop, dev));
    info.name = prop.name;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    info.sm_count = prop.multiProcessorCount;
    info.l2_bytes = prop.l2CacheSize;
    info.memory_bytes = int64_t(prop.totalGlobalMem);
    int mem_clock_khz = 0, bus_bits = 0, driver = 0, runtime = 0, sm_clock_khz = 0;
    CUDA_TRY(cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sm_clock_khz, cudaDevAttrClockRate, dev));
    info.sm_clock_mhz = sm_clock_khz / 1e3;
    CUDA_TRY(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
    CUDA_TRY(cudaDriverGetVersion(&driver));
    CUDA_TRY(cudaRuntimeGetVersion(&runtime));
    info.peak_bandwidth_gbps = 2.0 * mem_clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    info.driver_version = VersionString(driver);
    info.runtime_version = VersionString(runtime);
    info.driver_release = DriverRelease();
    l2_bytes_ = info.l2_bytes;
    return info;
  }

  Expected<void*> Allocate(size_t bytes) override {
    void* p = nullptr;
    CUDA_TRY(cudaMalloc(&p, std::max<size_t>(bytes, 1)));
    return p;
  }
  void Free(void* p) override { cudaFree(p); }  // errors here are reported by the next Synchronize
  Status CopyToDevice(void* dst, const void* src, size_t bytes) override {
    CUDA_TRY(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    return Status::Ok();
  }
  Status CopyToHost(void* dst, const void* src, size_t bytes) override {
    CUDA_TRY(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
    return Status::Ok();
  }
  Status CopyOnDevice(void* dst, const void* src, size_t bytes) override {
    CUDA_TRY(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
    return Status::Ok();
  }
  Status Fill(void* dst, uint8_t byte, size_t bytes) override {
    CUDA_TRY(cudaMemset(dst, byte, bytes));
    return Status::Ok();
  }
  Status TakePendingError() override {
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) return Status::Ok();
    return MakeError(CodeOf(err), Describe(err));
  }
  Status SetProfilerRange(bool open) override {
    CUDA_TRY(open ? cudaProfilerStart() : cudaProfilerStop());
    return Status::Ok();
  }
  Status Synchronize() override {
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaDeviceSynchronize());
    return Status::Ok();
  }
  // Touches a buffer of twice the L2 size (allocated once) so the next call reads from memory,
  // and drops any persisting-L2 lines the submission may have set up.
  // Launched through the sealed driver table (driver_calls.h): a submission that redirects the
  // runtime's launch or memset entries cannot drop the flush. Set up on the first call, in the
  // worker's init, before any submission is loaded.
  Status FlushCache() override {
    if (!flush_buffer_) {
      if (l2_bytes_ == 0) JUDGE_TRY(Info());
      flush_bytes_ = std::max<size_t>(size_t(l2_bytes_) * 2, size_t(64) << 20);
      // Zeros, so the read kernel's "keep the loads alive" store never fires; the tail is room for
      // one float per block if it did.
      CUDA_TRY(cudaMalloc(&flush_buffer_, flush_bytes_ + kFlushSinkBytes));
      CUDA_TRY(cudaMemset(flush_buffer_, 0, flush_bytes_ + kFlushSinkBytes));
      auto calls = SealedDriverCalls();
      if (!calls) return calls.error();
      driver_ = *calls;
      const void* kernel = nullptr;
      CUDA_TRY(static_cast<cudaError_t>(StreamReadLaunch(&kernel, &flush_blocks_, &flush_threads_)));
      cudaFunction_t function = nullptr;
      CUDA_TRY(cudaGetFuncBySymbol(&function, kernel));
      flush_kernel_ = reinterpret_cast<CUfunction>(function);
    }
    DRIVER_TRY(driver_->reset_persisting_l2());
    if (flush_mode_ == FlushMode::kWrite) {
      DRIVER_TRY(
          driver_->memset_d8(reinterpret_cast<CUdeviceptr>(flush_buffer_), ++flush_value_, flush_bytes_, nullptr));
    } else {
      const void* buffer = flush_buffer_;
      size_t n4 = flush_bytes_ / 16;
      float* sink = reinterpret_cast<float*>(static_cast<char*>(flush_buffer_) + flush_bytes_);
      void* args[] = {&buffer, &n4, &sink};
      DRIVER_TRY(driver_->launch(flush_kernel_, flush_blocks_, 1, 1, flush_threads_, 1, 1, 0, nullptr, args, nullptr));
    }
    return Status::Ok();
  }
  void SetFlushMode(FlushMode mode) override { flush_mode_ = mode; }
  Status MarkClock(int which) override {
    if (!stamps_) CUDA_TRY(cudaMalloc(&stamps_, 2 * sizeof(ClockStamp)));
    CUDA_TRY(static_cast<cudaError_t>(DeviceClockStampAsync(stamps_ + (which ? 1 : 0))));
    return Status::Ok();
  }
  Expected<bool> Generate(const CounterFill& fill, void* dst, int64_t count, uint64_t* checksum) override {
    if (!checksum) {
      CUDA_TRY(static_cast<cudaError_t>(DeviceGenerate(fill, dst, count)));
      return true;
    }
    // One accumulator for the worker's life: an allocation per fresh call would put cudaMalloc's
    // and cudaFree's (synchronizing, variable) cost on the judge's clock.
    if (!generated_sum_) CUDA_TRY(cudaMalloc(&generated_sum_, sizeof(*generated_sum_)));
    CUDA_TRY(cudaMemsetAsync(generated_sum_, 0, sizeof(*generated_sum_), 0));
    CUDA_TRY(static_cast<cudaError_t>(DeviceGenerate(fill, dst, count, generated_sum_)));
    CUDA_TRY(cudaMemcpy(checksum, generated_sum_, sizeof(*checksum), cudaMemcpyDeviceToHost));
    return true;
  }
  Status HoldStream(double microseconds) override {
    CUDA_TRY(static_cast<cudaError_t>(DeviceSpinAsync(uint64_t(microseconds * 1e3))));
    return Status::Ok();
  }
  Expected<double> MarkedClockMhz() override {
    ClockStamp host[2];
    if (!stamps_) return 0.0;
    CUDA_TRY(cudaMemcpy(host, stamps_, sizeof host, cudaMemcpyDeviceToHost));
    return ClockMhzBetween(host[0], host[1]);
  }
  Expected<uint64_t> Checksum(const void* p, size_t bytes) override {
    uint64_t sum = 0;
    CUDA_TRY(static_cast<cudaError_t>(DeviceChecksum(p, bytes, &sum)));
    return sum;
  }
  // 1 GiB (or 8x L2 if larger): far beyond the cache, small beside the GPU's memory.
  Expected<Ceilings> MeasureCeilings(double window_ms) override {
    if (l2_bytes_ == 0) JUDGE_TRY(Info());
    size_t bytes = std::max<size_t>(size_t(1) << 30, size_t(l2_bytes_) * 8);
    CeilingSweep read, copy;
    double gflops = 0;
    CUDA_TRY(static_cast<cudaError_t>(DeviceReadBandwidth(bytes, 5, window_ms, &read)));
    CUDA_TRY(static_cast<cudaError_t>(DeviceCopyBandwidth(bytes / 2, 5, window_ms, &copy)));
    CUDA_TRY(static_cast<cudaError_t>(DeviceFmaThroughput(5, window_ms, &gflops)));
    std::string shape = "read: " + std::to_string(read.loads_in_flight) + " float4 loads in flight per thread, " +
                        std::to_string(read.blocks_per_sm) + " blocks of 256 per SM, " +
                        (read.prefetch ? "256-byte L2 prefetch, " : "") + std::to_string(bytes >> 20) +
                        " MiB; copy: " + std::to_string(copy.loads_in_flight) + " float4 per thread, " +
                        std::to_string(copy.blocks_per_sm) + " blocks per SM, " + std::to_string(bytes >> 21) +
                        " MiB each way; fp32: 8 FMA chains per thread, 8 blocks of 256 per SM";
    return Ceilings{read.best_gbps, copy.best_gbps, gflops, shape};
  }
  Expected<std::unique_ptr<IntervalTimer>> CreateTimer() override {
    auto t = std::make_unique<EventTimer>();
    JUDGE_TRY(t->Init());
    return std::unique_ptr<IntervalTimer>(std::move(t));
  }

 private:
  int64_t l2_bytes_ = 0;
  void* flush_buffer_ = nullptr;
  size_t flush_bytes_ = 0;
  uint8_t flush_value_ = 0;
  FlushMode flush_mode_ = FlushMode::kRead;
  ClockStamp* stamps_ = nullptr;
  unsigned long long* generated_sum_ = nullptr;
  const DriverCalls* driver_ = nullptr;  // the flush's, set with its buffer
  CUfunction flush_kernel_ = nullptr;
  unsigned flush_blocks_ = 0, flush_threads_ = 0;
};

}  // namespace

std::unique_ptr<Device> MakeCudaDevice() { return std::make_unique<CudaDevice>(); }

}  // namespace judge

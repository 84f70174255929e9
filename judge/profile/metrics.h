// SPDX-License-Identifier: MIT
#pragma once
// The fixed set of Nsight Compute metrics the judge reads per kernel of solve(), and the facts from
// outside ncu that the diagnosis needs (judge/profile/rules.h). One table, kMetricTable, names every
// metric once: it builds ncu's --metrics argument and maps the CSV's columns back to fields, so the
// two cannot drift apart. Every value is optional: a replay that failed or a kernel a metric does
// not apply to gives "n/a" or no column, and a rule that lacks its inputs says nothing. (A metric
// name ncu does not know may fail the whole run instead: docs/PROFILE.md.)
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace judge::profile {

// Why a warp that could have issued did not (smsp__average_warps_issue_stalled_<reason>_...),
// in Nsight Compute's names; the order is the table's, not a ranking.
enum class Stall {
  kLongScoreboard,
  kBarrier,
  kMembar,
  kLgThrottle,
  kShortScoreboard,
  kMioThrottle,
  kMathPipeThrottle,
  kWait,
  kNotSelected,
  kDrain,
  kNoInstruction,
  kBranchResolving,
  kDispatchStall,
  kImcMiss,
  kSleeping,
  kTexThrottle,
  kMisc,
  kSelected,
};
inline constexpr size_t kStallCount = 18;
std::string_view StallName(Stall s);  // "long_scoreboard"

// What caps the blocks an SM can hold (the least of launch__occupancy_limit_*).
enum class Limiter { kUnknown, kRegisters, kSharedMemory, kWarps, kBlocks };
std::string_view LimiterName(Limiter l);  // "registers" | "shared_memory" | "warps" | "blocks" | "unknown"

using Metric = std::optional<double>;

// One kernel launch's metrics, in base units (bytes, nanoseconds, percent, counts).
struct KernelMetrics {
  int id = 0;              // ncu's launch index within the profiled range
  std::string name;        // demangled; untrusted (the submission names its kernels), valid UTF-8, bounded
  int64_t grid_size = 0;   // blocks in the grid (x*y*z; 0: unknown)
  int64_t block_size = 0;  // threads per block (0: unknown)

  Metric duration_ns;
  Metric dram_read_bytes, dram_write_bytes;
  Metric dram_pct;    // DRAM throughput, % of peak
  Metric memory_pct;  // speed of light: the busiest memory unit (DRAM, L2, L1/shared), % of peak
  Metric sm_pct;      // speed of light: the busiest SM pipeline, % of peak
  Metric achieved_occupancy_pct, theoretical_occupancy_pct;
  Metric limit_registers, limit_shared_mem, limit_warps, limit_blocks;  // blocks per SM each allows
  Metric registers_per_thread;
  Metric local_load_bytes, local_store_bytes;  // spills (local memory through L1)
  Metric launch_grid_size, launch_block_size;  // ncu's launch__ figures (fallback for the columns)
  Metric waves_per_sm;
  Metric sm_count;  // device__attribute_multiprocessor_count
  // The hardware's bank-conflict counters also count lost arbitration (H200: 9,539 "conflicts" in
  // reduction 06, whose shared accesses need no extra wavefront): shown, not judged by.
  Metric shared_ld_conflicts, shared_st_conflicts;
  // Shared-memory wavefronts, and those the accesses' addresses ideally need: the excess is the
  // replays bank conflicts cost (Source Counters).
  Metric shared_wavefronts, shared_wavefronts_ideal;
  Metric threads_per_warp_inst;          // average active threads per executed warp instruction, of 32
  Metric pred_on_threads_per_warp_inst;  // the same, counting only threads whose predicate is on
  Metric global_red_inst;                // warp-level global reduction instructions (atomics whose result is unused)
  Metric l2_atom_requests, l2_red_requests;  // the requests they became at L2, over all slices
  // The same in the busiest L2 slice: an address lives in one slice, so atomics on one address all
  // land in one (H200, reduction 06: 8,192 of 8,192 reductions in one slice).
  Metric l2_atom_requests_max_slice, l2_red_requests_max_slice;
  // Their mean over the slices: against it, the busiest says whether atomics crowd onto a few
  // addresses (H200: reduction 62.6x the mean, histogram's 256 bins 15.7x) or spread out.
  Metric l2_atom_requests_mean_slice, l2_red_requests_mean_slice;
  Metric ffma_thread_inst, fadd_thread_inst, fmul_thread_inst;  // FP32 work (an FMA is two flops)
  std::array<Metric, kStallCount> stalls;                       // cycles stalled per issued instruction, by reason

  // Derived figures; nullopt when an input is missing.
  Metric DramBytes() const;  // read + written
  Metric DramGbps() const;   // DramBytes over the duration (bytes per ns = GB/s)
  Metric Flops() const;      // FP32: 2 per FMA + adds + multiplies
  Metric L2AtomicRequests() const;
  Metric L2AtomicRequestsBusiestSlice() const;  // atom + red maxima (an upper bound if in two slices)
  Metric L2AtomicRequestsMeanSlice() const;
  Metric SharedExcessShare() const;  // (wavefronts - ideal) / wavefronts: the share bank conflicts add
  Metric LocalBytes() const;
  Limiter OccupancyLimiter() const;  // the least of the limits; ties name registers first
  int64_t Blocks() const;            // grid_size, else launch__grid_size
  int64_t ThreadsPerBlock() const;
  // The stall reason with the most cycles per issue ("selected" is issuing, not a stall), if any.
  std::optional<Stall> TopStall() const;
};

// Where a metric of the table lands.
struct MetricColumn {
  std::string_view name;         // Nsight Compute's metric name, as --metrics takes it and the CSV heads it
  Metric KernelMetrics::*field;  // null for the stall reasons (indexed by `stall` instead)
  int stall = -1;                // index into KernelMetrics::stalls, or -1
};

// Every metric the judge asks ncu for; one definition (metrics.cc).
const std::vector<MetricColumn>& MetricTable();
// "a,b,c": the argument of ncu's --metrics.
std::string MetricsArgument();

// What solve() did outside ncu's view, measured without the profiler (its replays make the
// profiled call's own time meaningless).
struct SolveFacts {
  std::optional<double> solve_ms;  // median device time of one unprofiled solve() call (CUDA events)
};

// What the diagnosis compares against: the judge's own measurements of this GPU and the problem's
// work for the profiled case.
struct GpuFacts {
  double read_gbps = 0;    // measured DRAM read ceiling (0: unknown)
  double fp32_gflops = 0;  // measured FP32 ceiling (0: unknown)
  int sm_count = 0;        // 0: take it from the metrics
};
struct WorkFacts {
  double useful_bytes = 0;      // the bytes the problem must move (problem.json's roofline; 0: unknown)
  double useful_flops = 0;      // the flops it must do
  int64_t output_elements = 0;  // elements of the outputs (the addresses atomics may spread over; 0: unknown)
};

}  // namespace judge::profile

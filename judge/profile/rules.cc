// SPDX-License-Identifier: MIT
#include "judge/profile/rules.h"

#include <algorithm>
#include <map>

#include <spdlog/fmt/fmt.h>

namespace judge::profile {
namespace {

constexpr double kWarpThreads = 32;

Finding Make(std::string code, Severity severity, const KernelMetrics* k, std::string message, std::string next_step,
             std::vector<FindingNumber> numbers) {
  Finding f;
  f.code = std::move(code);
  f.severity = severity;
  if (k) {
    f.kernel_id = k->id;
    f.kernel = k->name;
  }
  f.message = std::move(message);
  f.next_step = std::move(next_step);
  f.numbers = std::move(numbers);
  return f;
}

int SmCount(const KernelMetrics& k, const GpuFacts& gpu) {
  if (gpu.sm_count > 0) return gpu.sm_count;
  return k.sm_count ? int(*k.sm_count) : 0;
}

// A kernel shorter than `short_kernel_ns` ramps up and drains for much of its time: its bandwidth
// understates the steady state, which a larger case shows.
std::string ShortKernelClause(const KernelMetrics& k, const Thresholds& t) {
  if (!k.duration_ns || *k.duration_ns >= t.short_kernel_ns) return "";
  return fmt::format("; at {:.1f} us the kernel is short, and its ramp-up and last wave are much of it",
                     *k.duration_ns / 1000);
}
std::string ShortKernelAdvice(const KernelMetrics& k, const Thresholds& t) {
  if (!k.duration_ns || *k.duration_ns >= t.short_kernel_ns) return "";
  return "; profile a larger case (--case) to see the steady state";
}

// The bytes a kernel moved per second, for the roofline: DRAM's count over its duration, or the
// problem's useful bytes where the kernel does solve()'s whole work (`sole_kernel_share`) and DRAM
// counted fewer (the last writes still in L2 when it ended). The second is what the judge's own
// "% of ceiling" counts, so the profile and the timing quote the same figure.
struct Rate {
  double gbps = 0;       // the rate judged against the roof
  double dram_gbps = 0;  // DRAM's own count over the duration
  double bytes = 0;      // the bytes behind `gbps`
  double dram_bytes = 0;
  bool useful = false;  // `bytes` are the problem's useful bytes, more than DRAM counted
};
std::optional<Rate> Achieved(const KernelMetrics& k, double share, const WorkFacts& work, const Thresholds& t) {
  auto dram = k.DramBytes();
  if (!dram || !k.duration_ns || *k.duration_ns <= 0) return std::nullopt;
  Rate r;
  r.dram_bytes = r.bytes = *dram;
  if (share >= t.sole_kernel_share && work.useful_bytes > *dram) {
    r.bytes = std::min(work.useful_bytes, *dram + t.max_bytes_left_in_l2);
    r.useful = true;
  }
  r.gbps = r.bytes / *k.duration_ns;
  r.dram_gbps = r.dram_bytes / *k.duration_ns;
  return r;
}

// "moves DRAM bytes at 3348 GB/s", or, counting the problem's bytes, "moves the problem's 402.7 MB
// at 3455 GB/s"; DramNote, after the share of the roof, says what DRAM counted.
std::string MovesClause(const Rate& r) {
  if (!r.useful) return fmt::format("moves DRAM bytes at {:.0f} GB/s", r.gbps);
  return fmt::format("moves the problem's {:.1f} MB at {:.0f} GB/s", r.bytes / 1e6, r.gbps);
}
std::string DramNote(const Rate& r) {
  if (!r.useful) return "";
  return fmt::format(" (DRAM counted {:.1f} MB: the rest of the writes were still in L2 when it ended)",
                     r.dram_bytes / 1e6);
}

// "DRAM moves only 1083 GB/s (24% of the 4534 GB/s roof)", or, counting the problem's bytes, "it
// moves the problem's 134.2 MB at only 2885 GB/s (64% of the 4534 GB/s roof; DRAM counted ...)".
std::string SlowClause(const Rate& r, double fraction, double roof_gbps) {
  if (!r.useful)
    return fmt::format("DRAM moves only {:.0f} GB/s ({:.0f}% of the {:.0f} GB/s roof)", r.gbps, 100 * fraction,
                       roof_gbps);
  return fmt::format(
      "it moves the problem's {:.1f} MB at only {:.0f} GB/s ({:.0f}% of the {:.0f} GB/s roof; DRAM "
      "counted {:.1f} MB, the rest of the writes still in L2 at the end)",
      r.bytes / 1e6, r.gbps, 100 * fraction, roof_gbps, r.dram_bytes / 1e6);
}

// The stalls that mean a warp waits for something to arrive rather than for a unit to free up:
// long_scoreboard, a load from L1/L2/DRAM; barrier, the rest of its block at __syncthreads(), which
// is waiting on its own loads or on one warp's serial work (prefix_sum 02's look-back over earlier
// tiles: barrier 26.7 cycles per issue, long_scoreboard 13.9). Either, with no unit busy, is latency.
bool IsLatencyStall(Stall s) { return s == Stall::kLongScoreboard || s == Stall::kBarrier; }

// Where the kernel's traffic stands against the measured roof: near it; below it with a memory
// unit busy; far from it while a memory unit is busy (the bytes are not the limit, another memory
// unit is); or no unit busy (latency: too few requests in flight to cover DRAM's latency, or warps
// waiting on each other at barriers while nothing loads).
void Roofline(const KernelMetrics& k, double share, const GpuFacts& gpu, const WorkFacts& work, const Thresholds& t,
              std::vector<Finding>& out) {
  auto rate = Achieved(k, share, work, t);
  if (!rate || gpu.read_gbps <= 0) return;
  const double fraction = rate->gbps / gpu.read_gbps;
  std::vector<FindingNumber> numbers = {{"dram_gbps", rate->dram_gbps, "GB/s"},
                                        {"ceiling_gbps", gpu.read_gbps, "GB/s"},
                                        {"pct_of_ceiling", 100 * fraction, "%"}};
  if (rate->useful) {
    numbers.push_back({"achieved_gbps", rate->gbps, "GB/s"});
    numbers.push_back({"useful_bytes", rate->bytes, "bytes"});
    numbers.push_back({"dram_bytes", rate->dram_bytes, "bytes"});
  }
  if (fraction >= t.near_roof) {
    out.push_back(Make("memory_bound_near_roof", Severity::kInfo, &k,
                       fmt::format("{}, {:.0f}% of the {:.0f} GB/s this GPU was measured to read at{}: it is at the "
                                   "memory roof",
                                   MovesClause(*rate), 100 * fraction, gpu.read_gbps, DramNote(*rate)),
                       "only moving fewer bytes makes it faster: read each input byte once, write no temporaries, "
                       "fuse passes, use narrower types where the problem allows",
                       numbers));
    return;
  }
  // A unit other than DRAM far busier than DRAM (L1, L2): that unit is the story, as below.
  const bool other_unit_busier = k.memory_pct && k.dram_pct && *k.memory_pct - *k.dram_pct >= t.other_unit_margin_pct;
  const bool memory_busy = k.memory_pct && *k.memory_pct >= t.busy_unit_pct;
  // Below the roof, memory is the limit only while a memory unit is busy; under `busy_unit_pct`
  // nothing presses on it (prefix_sum 02: 64% of the roof by its bytes, DRAM 49% busy), and the
  // latency finding below says why the bytes come slowly. Without the figure, the band decides.
  if (fraction >= t.far_from_roof && !other_unit_busier && (memory_busy || !k.memory_pct)) {
    auto top = k.TopStall();
    if (top) numbers.push_back({"top_stall_" + std::string(StallName(*top)), *k.stalls[size_t(*top)], "cycles/issue"});
    out.push_back(Make(
        "memory_bound_below_roof", Severity::kBottleneck, &k,
        fmt::format("{}, {:.0f}% of the {:.0f} GB/s roof{}: memory is the limit, but the kernel leaves DRAM idle part "
                    "of the time{}{}",
                    MovesClause(*rate), 100 * fraction, gpu.read_gbps, DramNote(*rate),
                    top ? fmt::format(" (warps mostly waiting on {})", StallName(*top)) : "", ShortKernelClause(k, t)),
        std::string("keep more bytes in flight: each thread loads several independent elements "
                    "(float4, an unrolled loop) before it uses any, more work per block, fewer "
                    "__syncthreads() between a load and the next") +
            ShortKernelAdvice(k, t),
        numbers));
    return;
  }
  const bool sm_busy = k.sm_pct && *k.sm_pct >= t.busy_unit_pct;
  if (memory_busy && (!k.sm_pct || *k.memory_pct >= *k.sm_pct)) {
    numbers.push_back({"memory_sol_pct", *k.memory_pct, "%"});
    out.push_back(Make("memory_bound_far_from_roof", Severity::kBottleneck, &k,
                       fmt::format("a memory unit is {:.0f}% busy, yet {}: the limit is L1/shared memory or L2 "
                                   "traffic, not DRAM bytes",
                                   *k.memory_pct, SlowClause(*rate, fraction, gpu.read_gbps)),
                       "look at what keeps that unit busy: shared-memory bank conflicts, uncoalesced or strided "
                       "accesses (more sectors per request), atomics, re-reads through L2; then the DRAM roof is "
                       "the next limit",
                       numbers));
    return;
  }
  if (memory_busy || sm_busy) return;
  const bool low_occupancy = k.achieved_occupancy_pct && *k.achieved_occupancy_pct < t.low_occupancy_pct;
  auto top = k.TopStall();
  const bool waits = top && IsLatencyStall(*top);
  if (!low_occupancy && !waits) return;
  const bool at_barrier = top && *top == Stall::kBarrier;
  if (k.achieved_occupancy_pct) numbers.push_back({"achieved_occupancy_pct", *k.achieved_occupancy_pct, "%"});
  if (top) numbers.push_back({"top_stall_" + std::string(StallName(*top)), *k.stalls[size_t(*top)], "cycles/issue"});
  out.push_back(Make(
      "latency_bound", Severity::kBottleneck, &k,
      fmt::format("neither memory nor the SMs are busy (memory {:.0f}%, SM {:.0f}% of peak) and {}{}{}: {}{}",
                  k.memory_pct.value_or(0), k.sm_pct.value_or(0), SlowClause(*rate, fraction, gpu.read_gbps),
                  low_occupancy ? fmt::format(", achieved occupancy {:.0f}%", *k.achieved_occupancy_pct) : "",
                  top ? fmt::format(", warps mostly waiting on {}", StallName(*top)) : "",
                  at_barrier ? "at __syncthreads() each waits for the rest of its block (the block's loads, or work "
                               "one warp does alone), and a waiting block has no loads in flight"
                             : "too few bytes are in flight to cover DRAM's latency",
                  ShortKernelClause(k, t)),
      std::string(at_barrier
                      ? "keep loads in flight while a block waits: more blocks resident per SM (fewer registers or "
                        "less shared memory each), or a block that starts loading its next tile (cp.async, double "
                        "buffering, a persistent grid) before it waits; shorten what one warp does alone"
                      : "put more independent loads in flight: more threads or blocks, several elements per thread "
                        "loaded before they are used (unrolled, vectorized float4 loads), fewer dependent steps "
                        "between loads") +
          ShortKernelAdvice(k, t),
      numbers));
}

// Whether atomics serialize long enough to bound the kernel. An address lives in one L2 slice, so
// atomics on one address all queue there, and a slice works through its queue at about
// `same_address_atomic_ns` each whichever of its addresses they hit (H200: histogram 00, 256 bins,
// 3,949,956 reductions in the busiest slice in 6.18 ms: 1.57 ns each). The busiest slice's count
// therefore bounds the kernel; without it, the total spread evenly over the outputs' elements.
bool Atomics(const KernelMetrics& k, const WorkFacts& work, const Thresholds& t, std::vector<Finding>& out) {
  auto busiest = k.L2AtomicRequestsBusiestSlice();
  auto total = k.L2AtomicRequests();
  if (!busiest && !total) return false;
  if (!k.duration_ns || *k.duration_ns <= 0) return false;
  // Spread over many addresses (a mean per slice not far below the busiest) the slices work in
  // parallel and the 1.75 ns of a same-address turnaround no longer holds: not this finding.
  if (auto mean = k.L2AtomicRequestsMeanSlice(); busiest && mean && *busiest < t.atomic_concentration * *mean)
    return false;
  const double queue = busiest ? *busiest : *total / double(std::max<int64_t>(1, work.output_elements));
  const double serialized_ns = queue * t.same_address_atomic_ns;
  const double share = serialized_ns / *k.duration_ns;
  if (queue < t.min_atomics_per_address || share < t.atomic_share) return false;
  std::string where;
  if (total) where = fmt::format(" of {:.0f} in all", *total);
  if (work.output_elements > 0)
    where += fmt::format(", for {} output element{}", work.output_elements, work.output_elements == 1 ? "" : "s");
  out.push_back(Make(
      "same_address_atomics", Severity::kBottleneck, &k,
      fmt::format("about {:.0f} atomics queue in one L2 slice ({}{}): atomics on the same few addresses serialize "
                  "there, and at about {:.2f} ns each that is {:.1f} us, {:.0f}% of the kernel's {:.1f} us: the "
                  "atomics, not the bytes, set its time",
                  queue, busiest ? "the busiest" : "the total spread over the outputs", where, t.same_address_atomic_ns,
                  serialized_ns / 1000, 100 * std::min(1.0, share), *k.duration_ns / 1000),
      "make fewer atomics reach one address: combine values first (in registers, a warp shuffle, or a private "
      "copy in shared memory per block) and send one atomic per block and address, or write partials and "
      "reduce them in a second small kernel",
      {{"atomics_per_slice", queue, ""},
       {"busiest_slice_requests", busiest.value_or(0), ""},
       {"l2_atomic_requests", total.value_or(0), ""},
       {"serialized_ns", serialized_ns, "ns"},
       {"duration_ns", *k.duration_ns, "ns"}}));
  return true;
}

void Divergence(const KernelMetrics& k, const Thresholds& t, std::vector<Finding>& out) {
  // A block of fewer than 32 threads has idle lanes by construction: too_small_grid says that.
  if (k.ThreadsPerBlock() < int64_t(kWarpThreads)) return;
  const bool branches = k.threads_per_warp_inst && *k.threads_per_warp_inst < t.divergent_threads;
  const bool predicated = k.pred_on_threads_per_warp_inst && *k.pred_on_threads_per_warp_inst < t.active_lanes;
  if (!branches && !predicated) return;
  const double active = k.pred_on_threads_per_warp_inst ? *k.pred_on_threads_per_warp_inst : *k.threads_per_warp_inst;
  std::vector<FindingNumber> numbers;
  if (k.threads_per_warp_inst) numbers.push_back({"threads_per_warp_inst", *k.threads_per_warp_inst, ""});
  if (k.pred_on_threads_per_warp_inst)
    numbers.push_back({"pred_on_threads_per_warp_inst", *k.pred_on_threads_per_warp_inst, ""});
  out.push_back(
      Make("divergent", Severity::kWarning, &k,
           fmt::format("on average {:.1f} of a warp's 32 lanes do the work of each instruction ({} threads "
                       "on the branch taken, {} with their predicate on): {:.0f}% of the SIMT lanes idle",
                       active, k.threads_per_warp_inst ? fmt::format("{:.1f}", *k.threads_per_warp_inst) : "-",
                       k.pred_on_threads_per_warp_inst ? fmt::format("{:.1f}", *k.pred_on_threads_per_warp_inst) : "-",
                       100 * (1 - active / kWarpThreads)),
           "keep the threads that work together in whole warps: index so that a step's active threads are "
           "0..k-1 (`tid < s` with s halving, not `tid % (2*s) == 0`), and finish the last 32 elements "
           "with warp shuffles instead of a loop in which most lanes idle",
           numbers));
}

void BankConflicts(const KernelMetrics& k, const Thresholds& t, std::vector<Finding>& out) {
  auto share = k.SharedExcessShare();
  if (!share || *share < t.bank_conflict_share) return;
  const double excess = *k.shared_wavefronts - *k.shared_wavefronts_ideal;
  out.push_back(Make("bank_conflicts", Severity::kWarning, &k,
                     fmt::format("{:.0f}% of shared-memory wavefronts ({:.0f} of {:.0f}) are replays from bank "
                                 "conflicts: threads of a warp hit different addresses in the same bank",
                                 100 * *share, excess, *k.shared_wavefronts),
                     "have the 32 threads of a warp access 32 consecutive words (sequential addressing, not a stride "
                     "of 2^k), or pad shared arrays by one element per row",
                     {{"excess_share_pct", 100 * *share, "%"},
                      {"excess_wavefronts", excess, ""},
                      {"wavefronts", *k.shared_wavefronts, ""}}));
}

// FP32 math against the judge's measured FMA ceiling: at the compute roof, or well on the way with
// the SMs busy (the instructions around the FMAs, such as a GEMM's shared-memory loads and address
// math, take the issue slots). H200, matmul at 2048^3: cuBLAS 77% of the roof, the register-blocked
// sample 64%, the shared-memory tiled one 15% (bound by shared memory, not math).
bool Compute(const KernelMetrics& k, const GpuFacts& gpu, const Thresholds& t, std::vector<Finding>& out) {
  auto flops = k.Flops();
  if (!flops || *flops <= 0 || !k.duration_ns || *k.duration_ns <= 0 || gpu.fp32_gflops <= 0) return false;
  const double gflops = *flops / *k.duration_ns;
  const double fraction = gflops / gpu.fp32_gflops;
  std::vector<FindingNumber> numbers = {{"fp32_gflops", gflops, "GFLOP/s"},
                                        {"ceiling_gflops", gpu.fp32_gflops, "GFLOP/s"},
                                        {"pct_of_ceiling", 100 * fraction, "%"}};
  if (fraction >= t.compute_near_roof) {
    out.push_back(Make("compute_bound_near_roof", Severity::kInfo, &k,
                       fmt::format("does {:.0f} GFLOP/s of FP32 math, {:.0f}% of the {:.0f} GFLOP/s this GPU was "
                                   "measured to do: it is at the compute roof",
                                   gflops, 100 * fraction, gpu.fp32_gflops),
                       "only fewer floating-point operations make it faster in FP32 (tensor cores need a lower "
                       "precision, where a problem's tolerance allows it)",
                       numbers));
    return true;
  }
  if (fraction < t.compute_far_from_roof || !k.sm_pct || *k.sm_pct < t.busy_unit_pct) return false;
  numbers.push_back({"sm_sol_pct", *k.sm_pct, "%"});
  out.push_back(Make("compute_bound_below_roof", Severity::kBottleneck, &k,
                     fmt::format("does {:.0f} GFLOP/s of FP32 math, {:.0f}% of the {:.0f} GFLOP/s roof, with the SMs "
                                 "{:.0f}% busy: the instructions around the FMAs (loads, address math) take issue "
                                 "slots the math could use",
                                 gflops, 100 * fraction, gpu.fp32_gflops, *k.sm_pct),
                     "do more FMAs per other instruction: a larger tile of outputs per thread held in registers "
                     "(each loaded value used in more FMAs), float4 loads from shared memory, the next tile loaded "
                     "while this one is computed",
                     numbers));
  return true;
}

// The SMs' pipelines, not memory, are the busiest unit while DRAM is far from the roof: the kernel
// spends its time issuing instructions (index arithmetic, % and /, loops) per byte it moves.
void InstructionBound(const KernelMetrics& k, double share, const GpuFacts& gpu, const WorkFacts& work,
                      const Thresholds& t, std::vector<Finding>& out) {
  const auto rate = Achieved(k, share, work, t);
  const bool rated = rate && gpu.read_gbps > 0;
  if (!k.sm_pct || *k.sm_pct < t.busy_unit_pct || (k.memory_pct && *k.memory_pct > *k.sm_pct)) return;
  // Past far-from-roof the bytes flow, so instructions are the story only while memory is not busy
  // (below the roof without a busy unit, with the SMs busy, nothing else is said).
  const bool memory_busy = k.memory_pct && *k.memory_pct >= t.busy_unit_pct;
  if (rated && rate->gbps >= t.far_from_roof * gpu.read_gbps &&
      (rate->gbps >= t.near_roof * gpu.read_gbps || memory_busy))
    return;
  out.push_back(Make(
      "instruction_bound", Severity::kBottleneck, &k,
      fmt::format("the SMs are {:.0f}% busy issuing instructions while memory is {:.0f}% busy{}: "
                  "instructions per element, not bytes, set its time",
                  *k.sm_pct, k.memory_pct.value_or(0),
                  rated ? fmt::format(" and {} at {:.0f}% of the roof", rate->useful ? "the problem's bytes" : "DRAM",
                                      100 * rate->gbps / gpu.read_gbps)
                        : ""),
      "do fewer instructions per element: no % or / in index math, more elements per thread with "
      "the loop unrolled, shuffles instead of shared-memory steps, fewer __syncthreads()",
      {{"sm_sol_pct", *k.sm_pct, "%"}, {"memory_sol_pct", k.memory_pct.value_or(0), "%"}}));
}

void GridSize(const KernelMetrics& k, const GpuFacts& gpu, const Thresholds& t, std::vector<Finding>& out) {
  const int64_t blocks = k.Blocks();
  const int sms = SmCount(k, gpu);
  // Under a quarter of a wave, or SMs left without any block (64 blocks that need an SM each leave
  // 68 of 132 empty). Not 128 blocks on 132 SMs that hold one each (cuBLAS's SGEMM tiles: 0.97 waves).
  const bool empty_sms = blocks > 0 && sms > 0 && blocks < t.min_sm_fill * sms;
  const bool few_waves = k.waves_per_sm && *k.waves_per_sm < t.too_small_waves;
  if (!empty_sms && !few_waves) return;
  std::vector<FindingNumber> numbers = {{"blocks", double(blocks), ""},
                                        {"threads_per_block", double(k.ThreadsPerBlock()), ""}};
  if (sms > 0) numbers.push_back({"sm_count", double(sms), ""});
  if (k.waves_per_sm) numbers.push_back({"waves_per_sm", *k.waves_per_sm, ""});
  out.push_back(Make(
      "too_small_grid", Severity::kBottleneck, &k,
      fmt::format("launches {} block{} of {} thread{}{}{}: {}", blocks, blocks == 1 ? "" : "s", k.ThreadsPerBlock(),
                  k.ThreadsPerBlock() == 1 ? "" : "s", sms > 0 ? fmt::format(" on {} SMs", sms) : "",
                  k.waves_per_sm ? fmt::format(" ({:.2g} waves)", *k.waves_per_sm) : "",
                  empty_sms ? fmt::format("{} of the {} SMs get no block", sms - blocks, sms)
                            : std::string("most of the GPU's warp slots stay empty")),
      "launch enough blocks to fill every SM several times (thousands of threads per SM): split the "
      "work over blocks, and at least one warp's 32 threads per block",
      numbers));
}

void Spills(const KernelMetrics& k, std::vector<Finding>& out) {
  auto bytes = k.LocalBytes();
  if (!bytes || *bytes <= 0) return;
  out.push_back(
      Make("register_spills", Severity::kWarning, &k,
           fmt::format("{:.0f} bytes of local memory traffic ({} registers per thread): registers spill, "
                       "or an array indexed at run time lives in local memory",
                       *bytes, int(k.registers_per_thread.value_or(0))),
           "index private arrays with compile-time constants (unrolled loops), keep fewer values live, "
           "or relax __launch_bounds__/-maxrregcount",
           {{"local_bytes", *bytes, "bytes"}, {"registers_per_thread", k.registers_per_thread.value_or(0), ""}}));
}

void Occupancy(const KernelMetrics& k, const Thresholds& t, std::vector<Finding>& out) {
  if (!k.theoretical_occupancy_pct) return;
  const double theoretical = *k.theoretical_occupancy_pct;
  const Limiter limiter = k.OccupancyLimiter();
  if (theoretical < t.low_occupancy_pct) {
    out.push_back(Make(
        "occupancy_limited", Severity::kWarning, &k,
        fmt::format(
            "at most {:.0f}% of an SM's warps can be resident, limited by {}{}", theoretical, LimiterName(limiter),
            limiter == Limiter::kRegisters ? fmt::format(" ({} per thread)", int(k.registers_per_thread.value_or(0)))
                                           : ""),
        limiter == Limiter::kRegisters      ? "use fewer registers per thread (__launch_bounds__, fewer live values)"
        : limiter == Limiter::kSharedMemory ? "use less shared memory per block, or smaller blocks"
        : limiter == Limiter::kBlocks       ? "use larger blocks: an SM holds a limited number of blocks"
                                            : "launch more warps per SM",
        {{"theoretical_occupancy_pct", theoretical, "%"}}));
    return;
  }
  const double allowed = k.waves_per_sm ? std::min(theoretical, 100 * *k.waves_per_sm) : theoretical;
  if (k.achieved_occupancy_pct && *k.achieved_occupancy_pct < t.achieved_vs_theoretical * allowed) {
    out.push_back(Make(
        "occupancy_not_achieved", Severity::kWarning, &k,
        fmt::format("achieved occupancy {:.0f}% against a theoretical {:.0f}%: SMs sit partly empty "
                    "(a tail of late blocks, uneven work, or too few blocks)",
                    *k.achieved_occupancy_pct, theoretical),
        "give every block the same work and launch many more blocks than SMs, or loop over the "
        "input with a grid of a few blocks per SM",
        {{"achieved_occupancy_pct", *k.achieved_occupancy_pct, "%"}, {"theoretical_occupancy_pct", theoretical, "%"}}));
  }
}

}  // namespace

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kBottleneck: return "bottleneck";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: break;
  }
  return "info";
}

std::vector<Finding> DiagnoseKernel(const KernelMetrics& k, double share, const GpuFacts& gpu, const WorkFacts& work,
                                    const Thresholds& t) {
  std::vector<Finding> out;
  if (share < t.min_kernel_share) return out;
  GridSize(k, gpu, t, out);
  // Serialized atomics explain a low bandwidth themselves: then only "at the roof" is worth saying.
  const bool atomics_bound = Atomics(k, work, t, out);
  std::vector<Finding> roofs;
  const bool compute_bound = Compute(k, gpu, t, roofs);
  Roofline(k, share, gpu, work, t, roofs);
  // One resource at its roof: the other's bottleneck is not the story. Both below theirs: the
  // busier unit (memory against SM throughput) leads.
  const auto near = [](const Finding& f) {
    return f.code == "memory_bound_near_roof" || f.code == "compute_bound_near_roof";
  };
  const bool at_roof = std::any_of(roofs.begin(), roofs.end(), near);
  if (at_roof) std::erase_if(roofs, [](const Finding& f) { return f.severity == Severity::kBottleneck; });
  if (roofs.size() == 2 && roofs[0].code == "compute_bound_below_roof" && k.memory_pct && k.sm_pct &&
      *k.memory_pct > *k.sm_pct)
    std::swap(roofs[0], roofs[1]);
  for (auto& f : roofs)
    if (!atomics_bound || f.severity == Severity::kInfo) out.push_back(std::move(f));
  if (!atomics_bound && !compute_bound) InstructionBound(k, share, gpu, work, t, out);
  // At a roof nothing but less work helps: lanes, banks and occupancy are not worth a word. A
  // kernel bound by its FP32 math holds big register tiles on purpose: fewer warps is its trade.
  if (!at_roof) {
    Divergence(k, t, out);
    BankConflicts(k, t, out);
    if (!compute_bound) Occupancy(k, t, out);
  }
  Spills(k, out);
  return out;
}

Diagnosis Diagnose(const std::vector<KernelMetrics>& kernels, const SolveFacts& solve, const GpuFacts& gpu,
                   const WorkFacts& work, const Thresholds& t) {
  Diagnosis d;
  d.launches = int(kernels.size());
  double dram_bytes = 0;
  bool dram_known = !kernels.empty();
  for (const auto& k : kernels) {
    d.kernel_ns += k.duration_ns.value_or(0);
    auto b = k.DramBytes();
    dram_known &= b.has_value();
    dram_bytes += b.value_or(0);
  }
  // A kernel launched many times (a loop of passes) is diagnosed once, on its longest launch, with
  // the share of all its launches: twenty launches at 5% each are the whole time. Without durations
  // the shares are unknown, and every kernel is diagnosed rather than none.
  std::map<std::string, std::pair<double, const KernelMetrics*>> by_name;  // total ns, longest launch
  for (const auto& k : kernels) {
    auto& [total, longest] = by_name[k.name];
    total += k.duration_ns.value_or(0);
    if (!longest || k.duration_ns.value_or(0) > longest->duration_ns.value_or(0)) longest = &k;
  }
  std::vector<std::pair<double, Finding>> ranked;  // (kernel time, finding)
  for (const auto& k : kernels) {
    const auto& [total, longest] = by_name[k.name];
    if (longest != &k) continue;
    const double share = d.kernel_ns > 0 && k.duration_ns ? total / d.kernel_ns : 1.0;
    // The problem's bytes are one launch's only if that launch alone is most of the time: of a
    // kernel launched in a loop, each launch moves part of them.
    WorkFacts kernel_work = work;
    if (total > k.duration_ns.value_or(0)) kernel_work.useful_bytes = 0;
    for (auto& f : DiagnoseKernel(k, share, gpu, kernel_work, t)) ranked.emplace_back(total, std::move(f));
  }
  if (solve.solve_ms) {
    const double solve_ns = *solve.solve_ms * 1e6;
    d.outside_kernels_ns = std::max(0.0, solve_ns - d.kernel_ns);
    const double outside = *d.outside_kernels_ns;
    const std::string spent = fmt::format(
        "{:.1f} us of solve()'s {:.1f} us ({:.0f}%) is spent outside its {} kernel launch{}", outside / 1000,
        solve_ns / 1000, 100 * outside / std::max(solve_ns, 1.0), d.launches, d.launches == 1 ? "" : "es");
    const std::vector<FindingNumber> numbers = {{"outside_kernels_ns", outside, "ns"},
                                                {"solve_ns", solve_ns, "ns"},
                                                {"kernel_ns", d.kernel_ns, "ns"},
                                                {"launches", double(d.launches), ""}};
    if (solve_ns > 0 && outside >= t.host_min_ns && outside >= t.host_share * solve_ns)
      ranked.emplace_back(solve_ns,
                          Make("host_bound", Severity::kBottleneck, nullptr,
                               spent + ": allocations, memsets, copies or gaps between launches",
                               "allocate scratch memory once (a static buffer reused across calls) instead of in "
                               "every call, avoid cudaMemset/cudaMemcpy and synchronization inside solve(), fuse "
                               "small kernels into one",
                               numbers));
    else if (solve_ns > 0 && outside >= t.host_min_ns && outside >= t.outside_share * solve_ns)
      // Not what bounds solve(), but time its kernels' figures do not show: beside a kernel at its
      // roof ("only fewer bytes help") it is what is left to gain, and it leads (a warning ranks
      // above the roof's info).
      ranked.emplace_back(
          solve_ns,
          Make("time_outside_kernels", Severity::kWarning, nullptr,
               spent + " (memsets, copies, allocations, gaps between launches): no kernel's figures show it",
               "do that work in the kernel or not at all: clear an output in the kernel that fills it (its "
               "first block, with a call number so that nothing needs resetting between calls), allocate scratch "
               "once, no copies or synchronization inside solve(), fewer launches",
               numbers));
  }
  if (dram_known && work.useful_bytes > 0 && dram_bytes >= t.excess_traffic * work.useful_bytes)
    ranked.emplace_back(
        d.kernel_ns,
        Make("excess_dram_traffic", Severity::kWarning, nullptr,
             fmt::format("the kernels move {:.1f} MB through DRAM, {:.1f}x the {:.1f} MB the problem needs",
                         dram_bytes / 1e6, dram_bytes / work.useful_bytes, work.useful_bytes / 1e6),
             "read each input once and keep intermediate results on chip (registers, shared memory) instead of "
             "writing and re-reading them; fuse passes",
             {{"dram_bytes", dram_bytes, "bytes"},
              {"useful_bytes", work.useful_bytes, "bytes"},
              {"ratio", dram_bytes / work.useful_bytes, ""}}));
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    if (a.second.severity != b.second.severity) return a.second.severity > b.second.severity;
    return a.first > b.first;
  });
  for (auto& [ns, f] : ranked) d.findings.push_back(std::move(f));
  d.headline = d.findings.empty()
                   ? "nothing stood out: no rule of docs/PROFILE.md fired"
                   : (d.findings.front().kernel.empty() ? "solve(): " : d.findings.front().kernel + ": ") +
                         d.findings.front().message;
  return d;
}

bool HasFinding(const Diagnosis& d, std::string_view code) {
  return std::any_of(d.findings.begin(), d.findings.end(), [&](const Finding& f) { return f.code == code; });
}

}  // namespace judge::profile

// SPDX-License-Identifier: MIT
#pragma once
// Why a solve() is slow: pure functions from the metrics of its kernels (metrics.h) and the judge's
// own facts (the measured ceilings, the problem's useful work, the unprofiled solve() time) to a
// diagnosis: findings, each with a stable code, a severity, the numbers it rests on and a next step
// in plain words. Every threshold is a named constant of kThresholds, documented with its reason
// in docs/PROFILE.md; the tests hold the rules to metric sets recorded on real GPUs
// (judge/profile/testdata/).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "judge/profile/metrics.h"

namespace judge::profile {

struct Thresholds {
  // Kernels under this share of solve()'s kernel time get no finding of their own (a one-block
  // final pass of a two-pass reduction is "too small" and does not matter).
  double min_kernel_share = 0.10;
  // Bytes moved per second, as a fraction of the judge's measured read ceiling: at or over
  // `near_roof` the kernel is at the roof (only fewer bytes help); under `far_from_roof` it is far.
  // The line is the catalog's own bar (issue 13: a fast sample at >= 85% of the measured ceiling),
  // so "at the roof" means what the course asks for: under it the float4 siblings show what is left
  // (vector_add's grid-stride loop 81% against float4's 98%, softmax 02 83% against 03's 90%).
  // Between the two it is memory-bound below the roof (H200: vector_add 00 76%, softmax 01 78%,
  // transpose 02 79.95%), if a memory unit is busy (`busy_unit_pct`); else it is latency that leaves
  // DRAM idle (prefix_sum 02 and CUB's scan, 64-66% with memory 49-51% busy).
  double near_roof = 0.85;
  double far_from_roof = 0.60;
  // In that band, a memory unit this many points busier than DRAM (L1, L2) is the limit instead.
  double other_unit_margin_pct = 15;
  // A kernel with at least this share of solve()'s kernel time does the problem's whole work, so it
  // moves at least the problem's useful bytes: its rate counts those when DRAM counted fewer. The
  // L2 (60 MB on the H200) still holds up to its size of the last writes when the kernel ends:
  // prefix_sum 02 at 2^24 wrote 41.5 MB of its 67 MB to DRAM (52% of the roof by DRAM's count, 64%
  // by the problem's bytes, which is the judge's own "% of ceiling"). Reads cannot hide there: the
  // profiler flushes the caches before each kernel. Of several kernels, none alone owns the bytes.
  double sole_kernel_share = 0.9;
  // What the L2 can still hold at the end, so the most the problem's bytes may exceed DRAM's count
  // by (the H200's L2 is 60 MB): a sole kernel that moved far fewer bytes than the problem's (work
  // done by a copy outside it, or on the host) is not credited with them.
  double max_bytes_left_in_l2 = 64e6;
  // FP32 flops per second, as a fraction of the judge's measured FMA ceiling: at the compute roof
  // (H200, matmul 2048^3: cuBLAS 77%), or compute-bound below it with the SMs busy (the
  // register-blocked sample 64%).
  double compute_near_roof = 0.70;
  double compute_far_from_roof = 0.40;
  // A kernel shorter than this spends much of its time ramping up and draining (H200: reduction
  // 09-12 at 4M floats, 6.5-7.9 us, reach 46-56% of the roof; at 100M, 93%).
  double short_kernel_ns = 20000;
  // A unit (the busiest memory unit, or the SM) is busy at or over this % of its peak (Nsight
  // Compute's own guidance starts to call a kernel bound by a unit at 60%).
  double busy_unit_pct = 60;
  // Same-address atomics serialize in the L2 slice that owns the address: about this many ns each.
  // The floor of the H200 recordings, duration over requests in the busiest slice: 1.76 ns
  // (reduction 01, 4,194,304 atomics in 7.37 ms), 1.92-1.97 (02-04, 16,384 in 31.5-32.3 us),
  // 2.08-2.13 (05-08, 8,192 in 17.0-17.4 us).
  double same_address_atomic_ns = 1.75;
  // The serialized atomics' estimated time over the kernel's duration at which they bound it
  // (H200: 84-100% in reduction 01-08; 26% in 09, whose 1,024 atomics are not its limit).
  double atomic_share = 0.5;
  // Fewer atomics per address than this cannot queue long on one address.
  double min_atomics_per_address = 64;
  // The busiest slice's atomics over the mean per slice at or above which they crowd onto a few
  // addresses (H200: reductions 62.6x, histogram's 256 bins 15.7x). Spread evenly, slices work in
  // parallel and a same-address turnaround says nothing of the time.
  double atomic_concentration = 4;
  // Average threads per warp instruction (of 32) under which lanes are wasted: on the taken path
  // of branches (`divergent_threads`), or predicated off as well (`active_lanes`). On the H200 the
  // branch ratio hardly separates (tree reductions 31.7-31.9, block_sums reduce0 27.7, CUB 26.9),
  // the predicate-on ratio does: tree reductions 17.2-24.5, tuned kernels and CUB 26.0-30.3 (a
  // narrow margin at reduce0's 24.5).
  double divergent_threads = 24;
  double active_lanes = 25;
  // Shared-memory wavefronts beyond the ideal for the addresses (bank-conflict replays), as a share
  // of all (H200: 68% in reduction 03 and 70% in block_sums reduce2, 0 in every other sample).
  double bank_conflict_share = 0.10;
  // Waves per SM under which the grid leaves most of the GPU idle (fewer blocks than SMs where ncu
  // gave no waves).
  double too_small_waves = 0.25;
  // Blocks under this share of the SMs leave SMs with nothing to run, whatever the waves.
  double min_sm_fill = 0.9;
  // Time in solve() outside kernels (allocations, memsets, copies, launch gaps), as a share of
  // solve()'s time, and at least this much in absolute terms: over `host_share` it is what bounds
  // solve() (host_bound); over `outside_share` it is worth a warning, most of all beside a kernel
  // at its roof, whose own figures cannot show it (histogram 02's cudaMemsetAsync before its
  // kernel: 1.3 us of 49.5 us in the recording, 7.8 us of 56 us in its header's measurement). The
  // H200 recordings' unprofiled solve() against ncu's kernel durations differ by -3% to +3.4% where
  // nothing runs outside kernels but launch gaps.
  double host_share = 0.5;
  double outside_share = 0.10;
  double host_min_ns = 5000;
  // Theoretical occupancy (%) under which the launch itself caps latency hiding, and achieved
  // occupancy as a fraction of what the launch allows (the theoretical, or less with under one
  // wave: block_sums 08's 0.5 waves reach 47% of 50%) under which blocks end unevenly or start late.
  // Neither is said of a kernel at a roof (memory or compute), where more warps cannot help.
  double low_occupancy_pct = 50;
  double achieved_vs_theoretical = 0.5;
  // DRAM bytes of all kernels over the problem's useful bytes at which traffic is excessive.
  double excess_traffic = 1.5;
};
inline constexpr Thresholds kThresholds{};

enum class Severity {
  kInfo,        // worth knowing; nothing to fix (at the roof)
  kWarning,     // costs time, but is not what bounds it
  kBottleneck,  // what bounds the time
};
std::string_view SeverityName(Severity s);  // "info" | "warning" | "bottleneck"

struct FindingNumber {
  std::string name;  // "dram_gbps"
  double value = 0;
  std::string unit;  // "GB/s", "%", "ns", "" for a count or ratio
};

struct Finding {
  std::string code;  // stable: memory_bound_near_roof, same_address_atomics, ... (docs/PROFILE.md)
  Severity severity = Severity::kInfo;
  int kernel_id = -1;     // the kernel it is about (ncu's ID); -1: solve() as a whole
  std::string kernel;     // its name, empty for solve() as a whole
  std::string message;    // what was found, with its numbers
  std::string next_step;  // what to try, in plain words
  std::vector<FindingNumber> numbers;
};

struct Diagnosis {
  std::vector<Finding> findings;  // bottlenecks first, then warnings, then info; by kernel time within
  double kernel_ns = 0;           // the kernels' durations summed
  int launches = 0;
  std::optional<double> outside_kernels_ns;  // solve() time minus kernel_ns (needs SolveFacts::solve_ms)
  std::string headline;                      // the first finding's message, or that nothing stood out
};

// One kernel's findings; `share` is its fraction of solve()'s kernel time. With a share of at least
// `sole_kernel_share` the kernel is taken to move the problem's useful bytes (Diagnose passes none
// for a kernel launched several times, whose launches each move a part).
std::vector<Finding> DiagnoseKernel(const KernelMetrics& k, double share, const GpuFacts& gpu, const WorkFacts& work,
                                    const Thresholds& t = kThresholds);
// The whole solve(): every significant kernel's findings, plus the ones about solve() as a whole
// (host-bound, time outside kernels, excess DRAM traffic).
Diagnosis Diagnose(const std::vector<KernelMetrics>& kernels, const SolveFacts& solve, const GpuFacts& gpu,
                   const WorkFacts& work, const Thresholds& t = kThresholds);

bool HasFinding(const Diagnosis& d, std::string_view code);

}  // namespace judge::profile

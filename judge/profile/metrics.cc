// SPDX-License-Identifier: MIT
#include "judge/profile/metrics.h"

#include <algorithm>

namespace judge::profile {
namespace {

constexpr std::string_view kStallNames[kStallCount] = {
    "long_scoreboard",
    "barrier",
    "membar",
    "lg_throttle",
    "short_scoreboard",
    "mio_throttle",
    "math_pipe_throttle",
    "wait",
    "not_selected",
    "drain",
    "no_instruction",
    "branch_resolving",
    "dispatch_stall",
    "imc_miss",
    "sleeping",
    "tex_throttle",
    "misc",
    "selected",
};

// Both present, or nothing: a sum of one known half would read as a measurement.
Metric Sum(const Metric& a, const Metric& b) { return a && b ? Metric(*a + *b) : std::nullopt; }

std::vector<MetricColumn> BuildTable() {
  using K = KernelMetrics;
  std::vector<MetricColumn> t = {
      {"gpu__time_duration.sum", &K::duration_ns},
      {"dram__bytes_read.sum", &K::dram_read_bytes},
      {"dram__bytes_write.sum", &K::dram_write_bytes},
      {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", &K::dram_pct},
      {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", &K::memory_pct},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", &K::sm_pct},
      {"sm__warps_active.avg.pct_of_peak_sustained_active", &K::achieved_occupancy_pct},
      {"sm__maximum_warps_per_active_cycle_pct", &K::theoretical_occupancy_pct},
      {"launch__occupancy_limit_registers", &K::limit_registers},
      {"launch__occupancy_limit_shared_mem", &K::limit_shared_mem},
      {"launch__occupancy_limit_warps", &K::limit_warps},
      {"launch__occupancy_limit_blocks", &K::limit_blocks},
      {"launch__registers_per_thread", &K::registers_per_thread},
      {"l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum", &K::local_load_bytes},
      {"l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum", &K::local_store_bytes},
      {"launch__grid_size", &K::launch_grid_size},
      {"launch__block_size", &K::launch_block_size},
      {"launch__waves_per_multiprocessor", &K::waves_per_sm},
      {"device__attribute_multiprocessor_count", &K::sm_count},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", &K::shared_ld_conflicts},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", &K::shared_st_conflicts},
      {"memory_l1_wavefronts_shared", &K::shared_wavefronts},
      {"memory_l1_wavefronts_shared_ideal", &K::shared_wavefronts_ideal},
      {"smsp__thread_inst_executed_per_inst_executed.ratio", &K::threads_per_warp_inst},
      {"smsp__thread_inst_executed_pred_on_per_inst_executed.ratio", &K::pred_on_threads_per_warp_inst},
      {"smsp__inst_executed_op_global_red.sum", &K::global_red_inst},
      {"lts__t_requests_op_atom.sum", &K::l2_atom_requests},
      {"lts__t_requests_op_red.sum", &K::l2_red_requests},
      {"lts__t_requests_op_atom.max", &K::l2_atom_requests_max_slice},
      {"lts__t_requests_op_red.max", &K::l2_red_requests_max_slice},
      {"lts__t_requests_op_atom.avg", &K::l2_atom_requests_mean_slice},
      {"lts__t_requests_op_red.avg", &K::l2_red_requests_mean_slice},
      {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", &K::ffma_thread_inst},
      {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", &K::fadd_thread_inst},
      {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", &K::fmul_thread_inst},
  };
  // The stall names must outlive the table: kept in one static list of strings.
  static const std::vector<std::string> stall_metrics = [] {
    std::vector<std::string> v;
    for (std::string_view s : kStallNames)
      v.push_back("smsp__average_warps_issue_stalled_" + std::string(s) + "_per_issue_active.ratio");
    return v;
  }();
  for (size_t i = 0; i < kStallCount; ++i) t.push_back({stall_metrics[i], nullptr, int(i)});
  return t;
}

}  // namespace

std::string_view StallName(Stall s) { return kStallNames[size_t(s)]; }

std::string_view LimiterName(Limiter l) {
  switch (l) {
    case Limiter::kRegisters: return "registers";
    case Limiter::kSharedMemory: return "shared_memory";
    case Limiter::kWarps: return "warps";
    case Limiter::kBlocks: return "blocks";
    case Limiter::kUnknown: break;
  }
  return "unknown";
}

const std::vector<MetricColumn>& MetricTable() {
  static const std::vector<MetricColumn> table = BuildTable();
  return table;
}

std::string MetricsArgument() {
  std::string out;
  for (const MetricColumn& c : MetricTable()) {
    if (!out.empty()) out += ',';
    out += c.name;
  }
  return out;
}

Metric KernelMetrics::DramBytes() const { return Sum(dram_read_bytes, dram_write_bytes); }

Metric KernelMetrics::DramGbps() const {
  auto bytes = DramBytes();
  if (!bytes || !duration_ns || *duration_ns <= 0) return std::nullopt;
  return *bytes / *duration_ns;
}

Metric KernelMetrics::Flops() const {
  if (!ffma_thread_inst || !fadd_thread_inst || !fmul_thread_inst) return std::nullopt;
  return 2 * *ffma_thread_inst + *fadd_thread_inst + *fmul_thread_inst;
}

Metric KernelMetrics::L2AtomicRequests() const {
  if (!l2_atom_requests && !l2_red_requests) return std::nullopt;
  return l2_atom_requests.value_or(0) + l2_red_requests.value_or(0);
}

Metric KernelMetrics::L2AtomicRequestsBusiestSlice() const {
  if (!l2_atom_requests_max_slice && !l2_red_requests_max_slice) return std::nullopt;
  return l2_atom_requests_max_slice.value_or(0) + l2_red_requests_max_slice.value_or(0);
}

Metric KernelMetrics::L2AtomicRequestsMeanSlice() const {
  if (!l2_atom_requests_mean_slice && !l2_red_requests_mean_slice) return std::nullopt;
  return l2_atom_requests_mean_slice.value_or(0) + l2_red_requests_mean_slice.value_or(0);
}

Metric KernelMetrics::SharedExcessShare() const {
  if (!shared_wavefronts || !shared_wavefronts_ideal || *shared_wavefronts <= 0) return std::nullopt;
  return std::clamp((*shared_wavefronts - *shared_wavefronts_ideal) / *shared_wavefronts, 0.0, 1.0);
}

Metric KernelMetrics::LocalBytes() const {
  if (!local_load_bytes && !local_store_bytes) return std::nullopt;
  return local_load_bytes.value_or(0) + local_store_bytes.value_or(0);
}

Limiter KernelMetrics::OccupancyLimiter() const {
  std::pair<Metric, Limiter> limits[] = {{limit_registers, Limiter::kRegisters},
                                         {limit_shared_mem, Limiter::kSharedMemory},
                                         {limit_warps, Limiter::kWarps},
                                         {limit_blocks, Limiter::kBlocks}};
  Limiter best = Limiter::kUnknown;
  double least = 0;
  for (const auto& [limit, which] : limits)
    if (limit && (best == Limiter::kUnknown || *limit < least)) {
      best = which;
      least = *limit;
    }
  return best;
}

int64_t KernelMetrics::Blocks() const {
  if (grid_size > 0) return grid_size;
  return launch_grid_size ? int64_t(*launch_grid_size) : 0;
}

int64_t KernelMetrics::ThreadsPerBlock() const {
  if (block_size > 0) return block_size;
  return launch_block_size ? int64_t(*launch_block_size) : 0;
}

std::optional<Stall> KernelMetrics::TopStall() const {
  std::optional<Stall> top;
  double most = 0;
  for (size_t i = 0; i < kStallCount; ++i)
    if (Stall(i) != Stall::kSelected && stalls[i] && *stalls[i] > most) {
      most = *stalls[i];
      top = Stall(i);
    }
  return top;
}

}  // namespace judge::profile

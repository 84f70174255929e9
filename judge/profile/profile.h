// SPDX-License-Identifier: MIT
#pragma once
// One profiled case: what Nsight Compute measured for the kernels of one solve() call, the facts it
// was judged against, and the diagnosis (rules.h); or why nothing was measured (ncu missing, the
// counters restricted to administrators). Rendered as text and JSON here, so `judge profile`, the
// run report and the service say the same thing. Profiling never changes a verdict.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/profile/metrics.h"
#include "judge/profile/rules.h"
#include "judge/util/expected.h"

namespace judge::profile {

enum class ProfileStatus {
  kProfiled,            // metrics and a diagnosis
  kNcuMissing,          // no ncu on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin
  kCountersRestricted,  // ERR_NVGPUCTRPERM: the GPU's counters are for administrators only
  kFailed,              // ncu ran but measured no kernel (the call failed, or the tool did)
  kSkipped,             // no case qualified (none accepted, or the one asked for was not judged)
};
// "profiled" | "ncu_missing" | "counters_restricted" | "failed" | "skipped"
std::string_view ProfileStatusName(ProfileStatus s);
std::optional<ProfileStatus> ProfileStatusFromName(std::string_view name);

struct CaseProfile {
  std::string case_name;
  ProfileStatus status = ProfileStatus::kFailed;
  std::string message;  // for a status other than kProfiled: what happened and how to enable profiling
  std::vector<KernelMetrics> kernels;
  SolveFacts solve;
  GpuFacts gpu;
  WorkFacts work;
  Diagnosis diagnosis;
  double seconds = 0;  // how long profiling took
};

// From what ncu wrote (its log file): the kernels, the status, and the diagnosis against the facts.
CaseProfile ProfileFromNcu(std::string_view ncu_text, const SolveFacts& solve, const GpuFacts& gpu,
                           const WorkFacts& work);
CaseProfile NcuMissing();
std::string NcuMissingAdvice();

// The per-kernel table and the diagnosis, for people (`judge profile`, the text report).
std::string FormatProfileText(const CaseProfile& p);

// The JSON of the report's "profiles" entries: the kernels' metrics by Nsight Compute's names (one
// table, metrics.h), the facts, the findings. ProfileFromJson reads back every field.
nlohmann::json ProfileToJson(const CaseProfile& p);
Expected<CaseProfile> ProfileFromJson(const nlohmann::json& j);

// A point of the roofline chart: one kernel's arithmetic intensity (FP32 flops per DRAM byte) and
// GFLOP/s; nullopt without its inputs or with no flops (an integer kernel has no place on it).
struct RooflineDot {
  std::string kernel;
  double intensity = 0;  // flops per byte
  double gflops = 0;
  double gbps = 0;
};
std::optional<RooflineDot> KernelRooflineDot(const KernelMetrics& k);

}  // namespace judge::profile

// SPDX-License-Identifier: MIT
#pragma once
// Reads what `ncu --csv --page raw --metrics LIST` writes: its own "==PROF==", "==WARNING==" and
// "==ERROR==" lines, then a CSV whose first row heads the columns ("ID", "Kernel Name", "Block
// Size", "Grid Size", ..., one per metric), a row of units, and one row per profiled kernel. The
// text is untrusted (kernel names come from the submission, and a submission can print), so the
// reader never throws, bounds what it keeps, and treats anything it cannot read as missing.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "judge/profile/metrics.h"

namespace judge::profile {

inline constexpr size_t kMaxKernels = 4096;              // launches kept from one profiled call
inline constexpr size_t kMaxKernelNameBytes = 512;       // a kernel's name is cut after this
inline constexpr size_t kMaxNcuOutputBytes = 64u << 20;  // the reader looks at no more than this

struct NcuOutput {
  std::vector<KernelMetrics> kernels;  // in launch order
  // The GPU's counters are reserved to administrators (ERR_NVGPUCTRPERM): nothing was measured.
  bool counters_restricted = false;
  std::vector<std::string> errors;    // ncu's ==ERROR== lines (bounded, valid UTF-8)
  std::vector<std::string> warnings;  // ==WARNING== lines
  bool has_header = false;            // a CSV header was found
};

NcuOutput ParseNcuCsv(std::string_view text);

// One cell as a number in the base unit of its column's `unit` ("Kbyte" -> bytes, "usecond" -> ns
// for a time, "Gbyte/second" -> bytes per second, "%" as is); "1,234" is 1234. nullopt for
// "n/a", empty or anything not a number.
std::optional<double> ParseMetricValue(std::string_view cell, std::string_view unit);

// "(8192, 1, 1)" or "8192" -> 8192 (the product); 0 when unreadable or absurd.
int64_t ParseLaunchShape(std::string_view cell);

// Splits one CSV record (RFC 4180: quoted cells, "" for a quote) starting at `pos`; advances `pos`
// past its line end. A quoted cell may span lines.
std::vector<std::string> ReadCsvRecord(std::string_view text, size_t& pos);

// Whether ncu's text says the counters are restricted (ERR_NVGPUCTRPERM), and the advice to give.
bool SaysCountersRestricted(std::string_view text);
// Whether the driver lets only administrators read the performance counters, from the text of
// /proc/driver/nvidia/params ("RmProfilingAdminOnly: 1", the default); nullopt where it does not say.
std::optional<bool> CountersAdminOnly(std::string_view nvidia_params);
std::string CountersRestrictedAdvice();

}  // namespace judge::profile

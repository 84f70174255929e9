// SPDX-License-Identifier: MIT
#pragma once
// `judge ladder`: grades every submission in a folder, in name order, and tells the article's
// story: per version the verdict, the median at each performance size, GB/s, % of the memory's
// peak, and the speedup over the previous version.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "judge/core/run_report.h"
#include "judge/run/run_pipeline.h"

namespace judge {

struct LadderRung {
  std::string name;
  RunReport report;
  std::string article;  // the sample header's `// article:` claim (problem/sample_header.h)
};

// How many submissions a ladder or check-problem judges side by side (supervise/gpu_turns.h: the
// timed cases still take the GPU one at a time, so the times are those of a lone run).
struct SideBySideFacts {
  int requested = 0;  // --jobs; 0: chosen from the machine
  int submissions = 0;
  unsigned cores = 1;
  int64_t host_available_bytes = 0;       // MemAvailable; 0: unknown
  int64_t device_memory_bytes = 0;        // 0: unknown (the host double)
  int64_t largest_case_device_bytes = 0;  // check_problem.h DeviceBytesOfCase's total, largest case
  int64_t largest_case_buffer_bytes = 0;  // and its buffers alone, largest case
  bool one_at_a_time = false;             // --profile, --sanitize: their tools want the GPU whole
};
// The most chosen without --jobs: each run beside the first adds its correctness cases' GPU work
// and its host threads, and the timed cases queue for their turn.
inline constexpr int kMaxSideBySide = 4;
// A run's host memory, per byte of its largest case's buffers on the device (the outputs held in
// device slots take no host memory): its inputs in their variants, the case prepared next, kept
// outputs and fresh calls' references (expected outputs are shared, in the memo). Measured on the
// H100 box (16 cores, 125 GiB; 2026-12-05), peak RSS of a whole check-problem, memo included, over
// runs x largest case's buffers: prefix_sum 6.3x, softmax 5.3x, vector_add 5.2x, leaky_relu 4.7x,
// block_sums 1.7x; since large outputs wait on the device (2026-12-06, reaching host memory after
// the turns, when more runs hold theirs at once) softmax 7.1x. 8 leaves an eighth over the worst.
// (16 was measured before expected outputs were shared, and held vector_add and block_sums to one
// run at a time.)
inline constexpr int64_t kHostBytesPerDeviceByte = 8;
int SubmissionsSideBySide(const SideBySideFacts& facts);
// The facts of this machine and of `o` (its GPU's memory when known, --profile, --sanitize); the
// largest case is the caller's to add.
SideBySideFacts MachineSideBySide(const RunOptions& o, int requested, int submissions);

// Runs `base` once per file (base.submission is replaced), `side_by_side` of them at a time; the
// rungs come back in the files' order.
Expected<std::vector<LadderRung>> ClimbLadder(const RunOptions& base, const std::vector<std::string>& files,
                                              int side_by_side = 1);

// The files a ladder grades: *.cu (or *.cc for the host double) in `dir`, sorted by name.
std::vector<std::string> LadderFiles(const std::string& dir, DeviceKind device);

void WriteLadderText(const std::vector<LadderRung>& rungs, std::ostream& out);
void WriteLadderMarkdown(const std::vector<LadderRung>& rungs, std::ostream& out);

}  // namespace judge

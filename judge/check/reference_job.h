// SPDX-License-Identifier: MIT
#pragma once
// One call of a problem's reference (or checker) as the judge hands it to `judge-reference`, the
// small program that runs it (check/reference_child_main.cc): a memfd on the child's fd 3 holding
// this header, then the inputs, the expected values (and bounds), and for a checker the
// submission's outputs, each at an offset the header gives. The child maps it, calls, and writes
// its answer into the header.
//
// Why a program and not a fork of the judge: the judge holds GBs (a large case's inputs, expected
// values and fetched outputs, and side by side several runs' worth). fork() copies its page
// tables under the address space's write lock, stalling every other thread's page faults, and
// every page the judge writes afterwards faults once more (copy on write). On the H200, four
// samples of prefix_sum side by side spent 850 s of system time in 206 s of wall time and ran no
// faster than one at a time (docs/results/h200-2026-12-04-judge-time.md). posix_spawn shares the
// address space until exec instead: no page table is copied.
#include <cstddef>
#include <cstdint>

namespace judge {

inline constexpr uint64_t kReferenceJobMagic = 0x6a7564676572656bULL;  // "judgerek"
inline constexpr int kReferenceJobMaxBuffers = 32;
inline constexpr int kReferenceJobMaxScalars = 32;
inline constexpr size_t kReferenceJobAlign = 64;
// The child's exit code when it could not make the call at all (its reason is in `error`).
inline constexpr int kReferenceJobSetupFailed = 3;

enum class ReferenceJobKind : int32_t { kReference = 0, kCheck = 1 };

struct ReferenceJobHeader {
  uint64_t magic = kReferenceJobMagic;
  uint64_t bytes = 0;  // of the whole region, header included
  ReferenceJobKind kind = ReferenceJobKind::kReference;
  int32_t num_inputs = 0, num_outputs = 0, num_scalars = 0, num_reals = 0;
  int32_t with_bounds = 0;
  int64_t input_counts[kReferenceJobMaxBuffers] = {};
  uint64_t input_offsets[kReferenceJobMaxBuffers] = {};
  uint64_t input_bytes[kReferenceJobMaxBuffers] = {};
  int64_t output_counts[kReferenceJobMaxBuffers] = {};
  uint64_t output_offsets[kReferenceJobMaxBuffers] = {};  // doubles: written by a reference, read by a checker
  uint64_t bound_offsets[kReferenceJobMaxBuffers] = {};   // doubles, with_bounds only
  uint64_t got_offsets[kReferenceJobMaxBuffers] = {};     // a checker's: the submission's outputs, in their dtype
  uint64_t got_bytes[kReferenceJobMaxBuffers] = {};
  int64_t scalars[kReferenceJobMaxScalars] = {};
  double reals[kReferenceJobMaxScalars] = {};
  // Written by the child.
  int32_t done = 0;  // 1 once the call returned (an exit() inside the reference leaves it 0)
  int32_t rc = 0;
  double tolerance_used = 0;  // a checker's JudgeCheckArgs, copied back
  int32_t worst_output = 0;
  int64_t worst_index = -1;
  double expected_value = 0, got_value = 0;
  char message[256] = {};
  char error[512] = {};  // why the call could not be made (exit kReferenceJobSetupFailed)
};

// Where the data after the header starts, and each next part: aligned for any element type.
inline constexpr uint64_t ReferenceJobAlignUp(uint64_t offset) {
  return (offset + kReferenceJobAlign - 1) & ~uint64_t(kReferenceJobAlign - 1);
}

}  // namespace judge

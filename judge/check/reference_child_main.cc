// SPDX-License-Identifier: MIT
// `judge-reference LIBRARY PARENT_PID`: runs one call of a problem's reference (or its checker)
// from the job the judge left on fd 3 (check/reference_job.h), then exits. Its own program so
// that nothing of the judge's (its GBs of memory, its threads) comes with it.
#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "judge/check/reference_job.h"
#include "problems/reference_abi.h"

namespace {

using judge::ReferenceJobHeader;

[[noreturn]] void Fail(ReferenceJobHeader* job, const char* what, const char* detail) {
  if (job) std::snprintf(job->error, sizeof job->error, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
  std::fprintf(stderr, "judge-reference: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  std::_Exit(judge::kReferenceJobSetupFailed);
}

bool Within(uint64_t offset, uint64_t bytes, uint64_t size) { return offset <= size && bytes <= size - offset; }

}  // namespace

int main(int argc, char** argv) {
  // The judge gone, this call has no one to answer to.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (argc != 3) Fail(nullptr, "usage: judge-reference LIBRARY PARENT_PID (started by the judge)", nullptr);
  if (::getppid() != pid_t(std::atoll(argv[2]))) std::_Exit(judge::kReferenceJobSetupFailed);
  struct stat st {};
  if (::fstat(3, &st) != 0 || size_t(st.st_size) < sizeof(ReferenceJobHeader))
    Fail(nullptr, "no job on fd 3", std::strerror(errno));
  const uint64_t size = uint64_t(st.st_size);
  void* base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, 3, 0);
  if (base == MAP_FAILED) Fail(nullptr, "cannot map the job", std::strerror(errno));
  // Every page mapped in one call, not a fault per 4 KiB page: the inputs and outputs are up to GBs.
  // Advice only (MADV_POPULATE_WRITE, Linux 5.14; not in every libc's headers).
  constexpr int kPopulateWrite = 23;
  (void)::madvise(base, size, kPopulateWrite);
  auto* job = static_cast<ReferenceJobHeader*>(base);
  char* bytes = static_cast<char*>(base);
  if (job->magic != judge::kReferenceJobMagic || job->bytes != size)
    Fail(job, "the job's header is not the judge's", nullptr);
  const int inputs = job->num_inputs, outputs = job->num_outputs;
  if (inputs < 0 || inputs > judge::kReferenceJobMaxBuffers || outputs < 0 ||
      outputs > judge::kReferenceJobMaxBuffers || job->num_scalars < 0 ||
      job->num_scalars > judge::kReferenceJobMaxScalars || job->num_reals < 0 ||
      job->num_reals > judge::kReferenceJobMaxScalars)
    Fail(job, "the job's counts are out of range", nullptr);
  const bool check = job->kind == judge::ReferenceJobKind::kCheck;
  std::vector<const void*> input_ptrs, got_ptrs;
  std::vector<double*> output_ptrs, bound_ptrs;
  for (int i = 0; i < inputs; ++i) {
    if (job->input_counts[i] < 0 || !Within(job->input_offsets[i], job->input_bytes[i], size))
      Fail(job, "an input lies outside the job", nullptr);
    input_ptrs.push_back(bytes + job->input_offsets[i]);
  }
  for (int i = 0; i < outputs; ++i) {
    const uint64_t doubles = uint64_t(job->output_counts[i]) * sizeof(double);
    if (job->output_counts[i] < 0 || !Within(job->output_offsets[i], doubles, size))
      Fail(job, "an output lies outside the job", nullptr);
    output_ptrs.push_back(reinterpret_cast<double*>(bytes + job->output_offsets[i]));
    if (job->with_bounds) {
      if (!Within(job->bound_offsets[i], doubles, size)) Fail(job, "a bound lies outside the job", nullptr);
      bound_ptrs.push_back(reinterpret_cast<double*>(bytes + job->bound_offsets[i]));
    }
    if (!check) continue;
    if (!Within(job->got_offsets[i], job->got_bytes[i], size))
      Fail(job, "an output to check lies outside the job", nullptr);
    got_ptrs.push_back(bytes + job->got_offsets[i]);
  }
  void* library = ::dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library) Fail(job, "cannot load the reference", ::dlerror());
  JudgeReferenceArgs args{inputs,
                          input_ptrs.data(),
                          job->input_counts,
                          outputs,
                          output_ptrs.data(),
                          job->output_counts,
                          job->num_scalars,
                          job->scalars,
                          job->num_reals,
                          job->reals,
                          bound_ptrs.empty() ? nullptr : bound_ptrs.data()};
  if (!check) {
    auto* fn = reinterpret_cast<int (*)(const JudgeReferenceArgs*)>(::dlsym(library, "judge_reference"));
    if (!fn) Fail(job, "the reference defines no judge_reference", nullptr);
    job->rc = fn(&args);
  } else {
    auto* fn = reinterpret_cast<int (*)(JudgeCheckArgs*)>(::dlsym(library, "judge_check"));
    if (!fn) Fail(job, "the reference defines no judge_check", nullptr);
    JudgeCheckArgs c{};
    c.problem = &args;
    c.got = got_ptrs.data();
    c.worst_index = -1;
    job->rc = fn(&c);
    job->tolerance_used = c.tolerance_used;
    job->worst_output = c.worst_output;
    job->worst_index = c.worst_index;
    job->expected_value = c.expected_value;
    job->got_value = c.got_value;
    c.message[sizeof c.message - 1] = '\0';
    std::memcpy(job->message, c.message, sizeof job->message);
  }
  job->done = 1;
  std::fflush(nullptr);  // what the reference printed
  std::_Exit(0);         // no static destructors of the reference's: its call is all that was asked
}

// SPDX-License-Identifier: MIT
#include "judge/check/reference.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "judge/build/elf_symbols.h"
#include "judge/check/reference_job.h"
#include "judge/testcase/generate.h"
#include "judge/util/parallel.h"
#include "judge/util/subprocess.h"

namespace judge {

std::string ReferenceProgram() {
  if (const char* set = std::getenv("JUDGE_REFERENCE_PROGRAM"); set && *set) return set;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && fs::is_regular_file(self.parent_path() / "judge-reference", ec))
    return self.parent_path() / "judge-reference";
#ifdef JUDGE_REFERENCE_PROGRAM_BUILT
  // The build tree's, for programs that are not installed beside it (the test binaries).
  if (fs::is_regular_file(JUDGE_REFERENCE_PROGRAM_BUILT, ec)) return JUDGE_REFERENCE_PROGRAM_BUILT;
#endif
  return "";
}

Expected<Reference> Reference::Load(const Problem& problem, CompileCache& cache, ReferencePrecision precision) {
  std::string abi_dir = std::filesystem::path(problem.dir).parent_path().string();
  std::vector<std::string> flags = {"-I" + abi_dir};
  if (precision == ReferencePrecision::kLongDouble) flags.push_back("-DJUDGE_REAL=long double");
  HostCompiler compiler(flags);
  // The problem author's trusted code, run unconfined by judge-reference: confining its compile
  // would protect nothing, and it may include files next to it.
  CompileCache trusted(cache.dir(), CompileSandboxPolicy(false, "the problem's trusted reference"));
  auto built = trusted.Build(compiler, problem.reference_source, "host", problem.limits.compile_seconds);
  if (!built) return built.error();
  if (!built->ok)
    return MakeError(ErrorCode::kInternal,
                     "the reference " + problem.reference_source + " does not compile:\n" + built->log);
  // Its exports read from the file, not loaded: a missing entry point is said when the problem
  // loads, and none of the reference's code (its static constructors) runs in the judge.
  auto exported = ReadExportedFunctions(built->library_path);
  if (!exported)
    return MakeError(ErrorCode::kInternal, "cannot read the reference's symbols: " + exported.error().message);
  auto exports = [&](const std::string& name) {
    return std::find(exported->begin(), exported->end(), name) != exported->end();
  };
  if (!exports("judge_reference"))
    return MakeError(ErrorCode::kInternal, problem.reference_source + " does not define extern \"C\" judge_reference");
  Reference ref;
  ref.library_ = built->library_path;
  ref.program_ = ReferenceProgram();
  if (ref.program_.empty())
    return MakeError(ErrorCode::kInternal,
                     "cannot find judge-reference, the program that runs a problem's reference: it is built and "
                     "installed beside the judge (cmake --build, cmake --install); or set JUDGE_REFERENCE_PROGRAM "
                     "to its path");
  if (problem.check.kind == CheckKind::kReference) {
    ref.has_check_ = exports("judge_check");
    if (!ref.has_check_)
      return MakeError(ErrorCode::kInternal, problem.reference_source +
                                                 " does not define extern \"C\" judge_check, which problem.json's "
                                                 "\"check\": {\"kind\": \"reference\"} needs");
  }
  ref.name_ = "problems/" + problem.name + "/" + std::filesystem::path(problem.reference_source).filename().string();
  // A reference takes about a second at N = 1e8; the setup limit is the most a case may wait.
  ref.limit_seconds_ = std::max(60.0, problem.limits.setup_seconds);
  return ref;
}

namespace {

// Memory the judge and its judge-reference child share (check/reference_job.h): a memfd, mapped
// here and handed to the child as its fd 3; unmapped and closed when done.
class SharedRegion {
 public:
  explicit SharedRegion(size_t bytes) : bytes_(std::max(bytes, sizeof(ReferenceJobHeader))) {
    int fd = ::memfd_create("judge-reference-job", MFD_CLOEXEC);
    // Above the descriptors a child is handed (0-3): its dup2 to 3 then always clears close-on-exec.
    if (fd >= 0 && fd < 10) {
      const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
      ::close(fd);
      fd = high;
    }
    if (fd < 0) return;
    void* p = MAP_FAILED;
    if (::ftruncate(fd, off_t(bytes_)) == 0) p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
      ::close(fd);
      return;
    }
    fd_ = fd;
    data_ = p;
  }
  ~SharedRegion() {
    if (data_) ::munmap(data_, bytes_);
    if (fd_ >= 0) ::close(fd_);
  }
  SharedRegion(const SharedRegion&) = delete;
  SharedRegion& operator=(const SharedRegion&) = delete;
  char* bytes_at(uint64_t offset) const { return static_cast<char*>(data_) + offset; }
  ReferenceJobHeader* job() const { return static_cast<ReferenceJobHeader*>(data_); }
  bool ok() const { return data_ != nullptr; }
  int fd() const { return fd_; }
  size_t bytes() const { return bytes_; }
  // Maps the first `bytes` in one system call instead of a page fault per page (the reference's
  // outputs are up to GBs). Advice only: kernels before 5.14 fault the pages in as before.
  void Prefault(bool write, size_t bytes) const {
    constexpr int kPopulateRead = 22, kPopulateWrite = 23;  // MADV_POPULATE_*, not in every libc's headers
    if (data_) (void)::madvise(data_, std::min(bytes, bytes_), write ? kPopulateWrite : kPopulateRead);
  }

 private:
  size_t bytes_;
  int fd_ = -1;
  void* data_ = nullptr;
};

// The large regions of finished reference calls, kept for the next: a fresh shared mapping is
// zeroed page by page on first touch, seconds per GB in a virtual machine, and the fresh calls of
// a large case each need one of the same size (KeepFreedMemoryForReuse does this for the heap).
class RegionPool {
 public:
  static constexpr size_t kKept = 4;  // the fresh calls a case checks at once (FreshCallsToCheck's batch)
  std::unique_ptr<SharedRegion> Take(size_t bytes) {
    std::lock_guard lock(mutex_);
    auto best = kept_.end();
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if ((*it)->bytes() >= bytes && (best == kept_.end() || (*it)->bytes() < (*best)->bytes())) best = it;
    if (best == kept_.end()) return std::make_unique<SharedRegion>(bytes);
    auto region = std::move(*best);
    kept_.erase(best);
    return region;
  }
  void GiveBack(std::unique_ptr<SharedRegion> region) {
    if (!region || !region->ok()) return;
    std::lock_guard lock(mutex_);
    kept_.push_back(std::move(region));
    if (kept_.size() > kKept)  // the smallest goes
      kept_.erase(std::min_element(kept_.begin(), kept_.end(),
                                   [](const auto& a, const auto& b) { return a->bytes() < b->bytes(); }));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<SharedRegion>> kept_;
};

RegionPool& Regions() {
  static RegionPool pool;
  return pool;
}

// A region taken from the pool for one job, given back when done.
struct PooledRegion {
  explicit PooledRegion(size_t bytes) : region(Regions().Take(bytes)) {}
  ~PooledRegion() { Regions().GiveBack(std::move(region)); }
  PooledRegion(const PooledRegion&) = delete;
  PooledRegion& operator=(const PooledRegion&) = delete;
  std::unique_ptr<SharedRegion> region;
};

// Waits for `pid` up to `seconds`, then kills it; the wait status, or nullopt after a kill.
std::optional<int> WaitWithDeadline(pid_t pid, double seconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  auto pause = std::chrono::microseconds(100);
  for (;;) {
    int status = 0;
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0 && errno != EINTR) return std::nullopt;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return std::nullopt;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
}

// One job as the judge lays it out: the header (filled here), then each part at an aligned
// offset; Place() says where the next part of `bytes` goes.
struct JobLayout {
  ReferenceJobHeader header;
  uint64_t size = ReferenceJobAlignUp(sizeof(ReferenceJobHeader));
  uint64_t Place(uint64_t bytes) {
    const uint64_t at = size;
    size = ReferenceJobAlignUp(size + bytes);
    return at;
  }
};

// The case's inputs (made on the judge's threads) and scalars, laid out; outputs and bounds are
// placed by the caller.
struct PreparedJob {
  JobLayout layout;
  std::vector<HostBytes> inputs;
  size_t output_values = 0;  // over every checked buffer
};

Expected<PreparedJob> Prepare(const Problem& problem, const Case& c) {
  PreparedJob job;
  ReferenceJobHeader& h = job.layout.header;
  for (const Param& p : problem.params) {
    if (p.IsIntScalar()) {
      if (h.num_scalars == kReferenceJobMaxScalars)
        return MakeError(ErrorCode::kInternal, "too many int scalars for the reference");
      h.scalars[h.num_scalars++] = c.scalars.at(p.name);
    }
    if (p.IsRealScalar()) {
      if (h.num_reals == kReferenceJobMaxScalars)
        return MakeError(ErrorCode::kInternal, "too many float scalars for the reference");
      h.reals[h.num_reals++] = c.real_scalars.at(p.name);
    }
    if (!p.is_buffer) continue;
    auto count = problem.ElementCount(p, c.scalars);
    if (!count) return count.error();
    if (p.HoldsInputData()) {
      if (h.num_inputs == kReferenceJobMaxBuffers)
        return MakeError(ErrorCode::kInternal, "too many inputs for the reference");
      job.inputs.push_back(MaterializeInput(c.inputs.at(p.name), p.dtype, *count));
      h.input_counts[h.num_inputs] = *count;
      h.input_bytes[h.num_inputs] = job.inputs.back().size();
      h.input_offsets[h.num_inputs] = job.layout.Place(job.inputs.back().size());
      ++h.num_inputs;
    }
    if (p.IsChecked()) {
      if (h.num_outputs == kReferenceJobMaxBuffers)
        return MakeError(ErrorCode::kInternal, "too many outputs for the reference");
      h.output_counts[h.num_outputs++] = *count;
      job.output_values += size_t(*count);
    }
  }
  return job;
}

// Writes the job's header and inputs into the region `pooled` took for it; the inputs' host copies
// are freed.
Status Stage(PreparedJob& job, const PooledRegion& pooled, const std::string& what) {
  const SharedRegion& shared = *pooled.region;
  if (!shared.ok())
    return MakeError(ErrorCode::kInternal, "cannot map memory for " + what + ": " + std::string(std::strerror(errno)));
  ReferenceJobHeader& h = job.layout.header;
  h.bytes = shared.bytes();
  shared.Prefault(/*write=*/true, job.layout.size);
  std::memcpy(shared.job(), &h, sizeof h);
  for (int i = 0; i < h.num_inputs; ++i)
    ParallelCopy(shared.bytes_at(h.input_offsets[i]), job.inputs[size_t(i)].data(), h.input_bytes[i]);
  std::vector<HostBytes>().swap(job.inputs);
  return Status::Ok();
}

}  // namespace

ExpectedValues CopyValues(const double* from, size_t count) {
  ExpectedValues v(count);
  ParallelCopy(v.data(), from, count * sizeof(double));
  return v;
}

Status Reference::RunJob(const Case& c, int job_fd, const ReferenceJobHeader* job) const {
  const std::string where = "the problem's reference " + name_ + " ";
  const std::string whose = " on case " + c.name + ": a bug in the problem, not in the submission";
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawnattr_init(&attributes);
  ::posix_spawn_file_actions_adddup2(&actions, job_fd, 3);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  ::posix_spawn_file_actions_addclosefrom_np(&actions, 4);  // nothing else of the judge's
#endif
  // The judge's signal mask and handlers are not the reference's.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  ::posix_spawnattr_setsigmask(&attributes, &none);
  ::posix_spawnattr_setsigdefault(&attributes, &all);
  ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  const std::string parent = std::to_string(::getpid());
  char* argv[] = {const_cast<char*>(program_.c_str()), const_cast<char*>(library_.c_str()),
                  const_cast<char*>(parent.c_str()), nullptr};
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, program_.c_str(), &actions, &attributes, argv, environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::posix_spawnattr_destroy(&attributes);
  if (spawned != 0)
    return MakeError(ErrorCode::kInternal,
                     "cannot start " + program_ + " for the reference: " + std::strerror(spawned));
  auto status = WaitWithDeadline(pid, limit_seconds_);
  if (!status)
    return MakeError(ErrorCode::kInternal,
                     where + "did not finish within " + std::to_string(int(limit_seconds_)) + " s" + whose);
  if (WIFSIGNALED(*status))
    return MakeError(ErrorCode::kInternal,
                     where + "crashed (killed by " + DescribeSignal(WTERMSIG(*status)) + ")" + whose);
  if (WEXITSTATUS(*status) == kReferenceJobSetupFailed && !job->done)
    return MakeError(ErrorCode::kInternal, "judge-reference could not run " + name_ + " on case " + c.name + ": " +
                                               std::string(job->error, strnlen(job->error, sizeof job->error)));
  if (WEXITSTATUS(*status) != 0 || !job->done)  // exit() inside the reference
    return MakeError(ErrorCode::kInternal,
                     where + "exited with code " + std::to_string(WEXITSTATUS(*status)) + " before returning" + whose);
  return Status::Ok();
}

Expected<ExpectedOutputs> Reference::Compute(const Problem& problem, const Case& c) const {
  auto prepared = Prepare(problem, c);
  if (!prepared) return prepared.error();
  JobLayout& layout = prepared->layout;
  ReferenceJobHeader& h = layout.header;
  h.kind = ReferenceJobKind::kReference;
  h.with_bounds = problem.check.kind == CheckKind::kTolerance && problem.check.reference_bound;
  for (int i = 0; i < h.num_outputs; ++i)
    h.output_offsets[i] = layout.Place(uint64_t(h.output_counts[i]) * sizeof(double));
  if (h.with_bounds)
    for (int i = 0; i < h.num_outputs; ++i)
      h.bound_offsets[i] = layout.Place(uint64_t(h.output_counts[i]) * sizeof(double));
  PooledRegion pooled(layout.size);
  JUDGE_TRY(Stage(*prepared, pooled, "the reference's job"));
  const SharedRegion& shared = *pooled.region;
  JUDGE_TRY(RunJob(c, shared.fd(), shared.job()));
  const ReferenceJobHeader* done = shared.job();
  if (done->rc != 0)
    return MakeError(ErrorCode::kInternal, "the problem's reference " + name_ + " failed (returned " +
                                               std::to_string(done->rc) + ") on case " + c.name +
                                               ": a bug in the problem, not in the submission");
  // Read from the judge's header, not the child's: the offsets are the judge's own.
  auto values = [&](uint64_t offset, int i) {
    return CopyValues(reinterpret_cast<const double*>(shared.bytes_at(offset)), size_t(h.output_counts[i]));
  };
  ExpectedOutputs out;
  for (int i = 0; i < h.num_outputs; ++i) out.values.push_back(values(h.output_offsets[i], i));
  if (!h.with_bounds) return out;
  for (int i = 0; i < h.num_outputs; ++i) {
    out.bounds.push_back(values(h.bound_offsets[i], i));
    for (double b : out.bounds.back())
      if (!(b >= 0) || !std::isfinite(b))
        return MakeError(ErrorCode::kInternal, "the problem's reference " + name_ + " wrote a bound of " +
                                                   std::to_string(b) + " on case " + c.name +
                                                   " (bounds are finite and not negative)");
  }
  return out;
}

Expected<CheckResult> Reference::Check(const Problem& problem, const Case& c, const ExpectedOutputs& expected,
                                       std::string_view got) const {
  if (!has_check_) return MakeError(ErrorCode::kInternal, name_ + " has no judge_check");
  auto prepared = Prepare(problem, c);
  if (!prepared) return prepared.error();
  JobLayout& layout = prepared->layout;
  ReferenceJobHeader& h = layout.header;
  h.kind = ReferenceJobKind::kCheck;
  if (expected.values.size() != size_t(h.num_outputs))
    return MakeError(ErrorCode::kInternal, "the checker got " + std::to_string(expected.values.size()) +
                                               " expected outputs for the problem's " + std::to_string(h.num_outputs));
  // The expected values are the ABI's outputs; the submission's outputs follow, each in its dtype.
  size_t offset = 0;
  int index = 0;
  for (const Param& p : problem.params) {
    if (!p.IsChecked()) continue;
    h.output_offsets[index] = layout.Place(expected.values[size_t(index)].size() * sizeof(double));
    h.got_bytes[index] = uint64_t(problem.ElementCount(p, c.scalars).value()) * DTypeSize(p.dtype);
    h.got_offsets[index] = layout.Place(h.got_bytes[index]);
    offset += h.got_bytes[index];
    ++index;
  }
  if (offset != got.size())
    return MakeError(ErrorCode::kInternal, "the outputs to check hold " + std::to_string(got.size()) +
                                               " bytes, the problem's " + std::to_string(offset));
  PooledRegion pooled(layout.size);
  JUDGE_TRY(Stage(*prepared, pooled, "the checker"));
  const SharedRegion& shared = *pooled.region;
  offset = 0;
  for (int i = 0; i < h.num_outputs; ++i) {
    const ExpectedValues& v = expected.values[size_t(i)];
    ParallelCopy(shared.bytes_at(h.output_offsets[i]), v.data(), v.size() * sizeof(double));
    ParallelCopy(shared.bytes_at(h.got_offsets[i]), got.data() + offset, h.got_bytes[i]);
    offset += h.got_bytes[i];
  }
  JUDGE_TRY(RunJob(c, shared.fd(), shared.job()));
  const ReferenceJobHeader* done = shared.job();
  if (done->rc < 0)
    return MakeError(ErrorCode::kInternal, "the problem's checker " + name_ + " failed (returned " +
                                               std::to_string(done->rc) + ") on case " + c.name);
  CheckResult r;
  r.custom = true;
  r.passed = done->rc == 1;
  r.elements = int64_t(prepared->output_values);
  r.mismatches = r.passed ? 0 : 1;
  r.worst_output = done->worst_output;
  r.worst_index = done->worst_index;
  r.expected = done->expected_value;
  r.got = done->got_value;
  r.tolerance_used = r.passed ? std::max(0.0, done->tolerance_used) : std::max(1.0, done->tolerance_used);
  r.message = std::string(done->message, strnlen(done->message, sizeof done->message));
  return r;
}

}  // namespace judge

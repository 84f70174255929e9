// SPDX-License-Identifier: MIT
#include "judge/check/reference.h"

#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "../../problems/reference_abi.h"
#include "judge/testcase/generate.h"
#include "judge/util/parallel.h"
#include "judge/util/subprocess.h"

namespace judge {

Expected<Reference> Reference::Load(const Problem& problem, CompileCache& cache, ReferencePrecision precision) {
  std::string abi_dir = std::filesystem::path(problem.dir).parent_path().string();
  std::vector<std::string> flags = {"-I" + abi_dir};
  if (precision == ReferencePrecision::kLongDouble) flags.push_back("-DJUDGE_REAL=long double");
  HostCompiler compiler(flags);
  // The problem author's code, loaded into the judge itself: confining its compile would protect
  // nothing, and it may include files next to it.
  CompileCache trusted(cache.dir(), CompileSandboxPolicy(false, "the problem's trusted reference"));
  auto built = trusted.Build(compiler, problem.reference_source, "host", problem.limits.compile_seconds);
  if (!built) return built.error();
  if (!built->ok)
    return MakeError(ErrorCode::kInternal,
                     "the reference " + problem.reference_source + " does not compile:\n" + built->log);
  void* handle = ::dlopen(built->library_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return MakeError(ErrorCode::kInternal, std::string("cannot load the reference: ") + ::dlerror());
  void* fn = ::dlsym(handle, "judge_reference");
  if (!fn)
    return MakeError(ErrorCode::kInternal, problem.reference_source + " does not define extern \"C\" judge_reference");
  Reference ref;
  ref.fn_ = reinterpret_cast<Fn>(fn);
  if (problem.check.kind == CheckKind::kReference) {
    ref.check_fn_ = reinterpret_cast<CheckFn>(::dlsym(handle, "judge_check"));
    if (!ref.check_fn_)
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

// Memory the child writes its results into; unmapped when done.
class SharedRegion {
 public:
  explicit SharedRegion(size_t bytes) : bytes_(std::max<size_t>(bytes, 1)) {
    void* p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    data_ = p == MAP_FAILED ? nullptr : p;
  }
  ~SharedRegion() {
    if (data_) ::munmap(data_, bytes_);
  }
  SharedRegion(const SharedRegion&) = delete;
  SharedRegion& operator=(const SharedRegion&) = delete;
  template <typename T>
  T* as() const {
    return static_cast<T*>(data_);
  }
  bool ok() const { return data_ != nullptr; }
  size_t bytes() const { return bytes_; }
  // Maps the first `bytes` in one system call instead of a page fault per page (the reference's
  // outputs are up to GBs); for writing in the child that makes them, for reading in the parent.
  // Advice only: kernels before 5.14 fault the pages in as before.
  void Prefault(bool write, size_t bytes) const {
    constexpr int kPopulateRead = 22, kPopulateWrite = 23;  // MADV_POPULATE_*, not in every libc's headers
    if (data_) (void)::madvise(data_, std::min(bytes, bytes_), write ? kPopulateWrite : kPopulateRead);
  }

 private:
  size_t bytes_;
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

// The case's buffers and scalars as the ABI takes them; `outputs` points into shared memory.
struct ReferenceCall {
  std::vector<HostBytes> inputs;
  std::vector<const void*> input_ptrs;
  std::vector<int64_t> input_counts, output_counts, scalars;
  std::vector<double> reals;
  std::vector<double*> output_ptrs, bound_ptrs;
  size_t output_values = 0;  // over every checked buffer

  JudgeReferenceArgs Args() const {
    return JudgeReferenceArgs{int32_t(inputs.size()),
                              input_ptrs.data(),
                              input_counts.data(),
                              int32_t(output_counts.size()),
                              output_ptrs.data(),
                              output_counts.data(),
                              int32_t(scalars.size()),
                              scalars.data(),
                              int32_t(reals.size()),
                              reals.data(),
                              bound_ptrs.empty() ? nullptr : bound_ptrs.data()};
  }
};

Expected<ReferenceCall> Prepare(const Problem& problem, const Case& c) {
  ReferenceCall call;
  for (const Param& p : problem.params) {
    if (p.IsIntScalar()) call.scalars.push_back(c.scalars.at(p.name));
    if (p.IsRealScalar()) call.reals.push_back(c.real_scalars.at(p.name));
    if (!p.is_buffer) continue;
    auto count = problem.ElementCount(p, c.scalars);
    if (!count) return count.error();
    if (p.HoldsInputData()) {
      call.inputs.push_back(MaterializeInput(c.inputs.at(p.name), p.dtype, *count));
      call.input_counts.push_back(*count);
    }
    if (p.IsChecked()) {
      call.output_counts.push_back(*count);
      call.output_values += size_t(*count);
    }
  }
  for (const auto& in : call.inputs) call.input_ptrs.push_back(in.data());
  return call;
}

// Points the call's outputs (and bounds, when the check takes them) at `shared`, one after another.
void PlaceOutputs(ReferenceCall& call, double* shared, bool with_bounds) {
  size_t offset = 0;
  for (int64_t n : call.output_counts) {
    call.output_ptrs.push_back(shared + offset);
    offset += size_t(n);
  }
  if (!with_bounds) return;
  for (int64_t n : call.output_counts) {
    call.bound_ptrs.push_back(shared + offset);
    offset += size_t(n);
  }
}

}  // namespace

ExpectedValues CopyValues(const double* from, size_t count) {
  ExpectedValues v(count);
  ParallelCopy(v.data(), from, count * sizeof(double));
  return v;
}

ExpectedOutputs CopyOf(const ExpectedOutputs& outputs) {
  ExpectedOutputs copy;
  for (const auto& v : outputs.values) copy.values.push_back(CopyValues(v.data(), v.size()));
  for (const auto& b : outputs.bounds) copy.bounds.push_back(CopyValues(b.data(), b.size()));
  return copy;
}

Expected<int> Reference::InChild(const Case& c, const std::function<int()>& call) const {
  const std::string where = "the problem's reference " + name_ + " ";
  const std::string whose = " on case " + c.name + ": a bug in the problem, not in the submission";
  SharedRegion rc(sizeof(int));
  if (!rc.ok())
    return MakeError(ErrorCode::kInternal, "cannot map memory for the reference: " + std::string(std::strerror(errno)));
  // The child only calls the reference and exits: no locks of the judge's other threads are taken.
  pid_t pid = ::fork();
  if (pid < 0)
    return MakeError(ErrorCode::kInternal, "cannot fork for the reference: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    *rc.as<int>() = call();
    _exit(0);
  }
  auto status = WaitWithDeadline(pid, limit_seconds_);
  if (!status)
    return MakeError(ErrorCode::kInternal,
                     where + "did not finish within " + std::to_string(int(limit_seconds_)) + " s" + whose);
  if (WIFSIGNALED(*status))
    return MakeError(ErrorCode::kInternal,
                     where + "crashed (killed by " + DescribeSignal(WTERMSIG(*status)) + ")" + whose);
  if (WEXITSTATUS(*status) != 0)  // exit() inside the reference
    return MakeError(ErrorCode::kInternal, where + "exited with code " + std::to_string(WEXITSTATUS(*status)) + whose);
  return *rc.as<int>();
}

Expected<ExpectedOutputs> Reference::Compute(const Problem& problem, const Case& c) const {
  auto call = Prepare(problem, c);
  if (!call) return call.error();
  const bool with_bounds = problem.check.kind == CheckKind::kTolerance && problem.check.reference_bound;
  const size_t bytes = call->output_values * (with_bounds ? 2 : 1) * sizeof(double);
  std::unique_ptr<SharedRegion> region = Regions().Take(bytes);
  struct Return {
    std::unique_ptr<SharedRegion>& region;
    ~Return() { Regions().GiveBack(std::move(region)); }
  } give_back{region};
  const SharedRegion& shared = *region;
  if (!shared.ok())
    return MakeError(ErrorCode::kInternal,
                     "cannot map memory for the reference's outputs: " + std::string(std::strerror(errno)));
  PlaceOutputs(*call, shared.as<double>(), with_bounds);
  JudgeReferenceArgs args = call->Args();
  auto rc = InChild(c, [&] {
    shared.Prefault(/*write=*/true, bytes);
    return fn_(&args);
  });
  if (!rc) return rc.error();
  shared.Prefault(/*write=*/false, bytes);
  if (*rc != 0)
    return MakeError(ErrorCode::kInternal, "the problem's reference " + name_ + " failed (returned " +
                                               std::to_string(*rc) + ") on case " + c.name +
                                               ": a bug in the problem, not in the submission");
  ExpectedOutputs out;
  for (size_t i = 0; i < call->output_ptrs.size(); ++i)
    out.values.push_back(CopyValues(call->output_ptrs[i], size_t(call->output_counts[i])));
  for (size_t i = 0; i < call->bound_ptrs.size(); ++i) {
    out.bounds.push_back(CopyValues(call->bound_ptrs[i], size_t(call->output_counts[i])));
    for (double b : out.bounds.back())
      if (!(b >= 0) || !std::isfinite(b))
        return MakeError(ErrorCode::kInternal, "the problem's reference " + name_ + " wrote a bound of " +
                                                   std::to_string(b) + " on case " + c.name +
                                                   " (bounds are finite and not negative)");
  }
  return out;
}

Expected<CheckResult> Reference::Check(const Problem& problem, const Case& c, const ExpectedOutputs& expected,
                                       const std::string& got) const {
  if (!check_fn_) return MakeError(ErrorCode::kInternal, name_ + " has no judge_check");
  auto call = Prepare(problem, c);
  if (!call) return call.error();
  // The expected values are the ABI's outputs: copied once into memory the child reads.
  std::vector<double*> expected_ptrs;
  for (const auto& v : expected.values) expected_ptrs.push_back(const_cast<double*>(v.data()));
  call->output_ptrs = expected_ptrs;
  std::vector<const void*> got_ptrs;
  size_t offset = 0;
  for (const Param& p : problem.params) {
    if (!p.IsChecked()) continue;
    got_ptrs.push_back(got.data() + offset);
    offset += size_t(problem.ElementCount(p, c.scalars).value()) * DTypeSize(p.dtype);
  }
  if (offset != got.size())
    return MakeError(ErrorCode::kInternal, "the outputs to check hold " + std::to_string(got.size()) +
                                               " bytes, the problem's " + std::to_string(offset));
  JudgeReferenceArgs args = call->Args();
  SharedRegion shared(sizeof(JudgeCheckArgs));
  if (!shared.ok())
    return MakeError(ErrorCode::kInternal, "cannot map memory for the checker: " + std::string(std::strerror(errno)));
  JudgeCheckArgs* check = new (shared.as<void>()) JudgeCheckArgs{};
  check->problem = &args;
  check->got = got_ptrs.data();
  check->worst_index = -1;
  auto rc = InChild(c, [&] { return check_fn_(check); });
  if (!rc) return rc.error();
  if (*rc < 0)
    return MakeError(ErrorCode::kInternal, "the problem's checker " + name_ + " failed (returned " +
                                               std::to_string(*rc) + ") on case " + c.name);
  check->message[sizeof check->message - 1] = '\0';
  CheckResult r;
  r.custom = true;
  r.passed = *rc == 1;
  r.elements = int64_t(call->output_values);
  r.mismatches = r.passed ? 0 : 1;
  r.worst_output = check->worst_output;
  r.worst_index = check->worst_index;
  r.expected = check->expected_value;
  r.got = check->got_value;
  r.tolerance_used = r.passed ? std::max(0.0, check->tolerance_used) : std::max(1.0, check->tolerance_used);
  r.message = check->message;
  return r;
}

}  // namespace judge

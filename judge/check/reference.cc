// SPDX-License-Identifier: MIT
#include "judge/check/reference.h"

#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "../../problems/reference_abi.h"
#include "judge/testcase/generate.h"
#include "judge/util/subprocess.h"

namespace judge {

Expected<Reference> Reference::Load(const Problem& problem, CompileCache& cache) {
  std::string abi_dir = std::filesystem::path(problem.dir).parent_path().string();
  HostCompiler compiler({"-I" + abi_dir});
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
  ref.name_ = "problems/" + problem.name + "/" + std::filesystem::path(problem.reference_source).filename().string();
  // A reference takes about a second at N = 1e8; the setup limit is the most a case may wait.
  ref.limit_seconds_ = std::max(60.0, problem.limits.setup_seconds);
  return ref;
}

namespace {

// Shared memory the child writes the expected values into; unmapped when done.
class SharedDoubles {
 public:
  explicit SharedDoubles(size_t count) : bytes_(std::max<size_t>(count, 1) * sizeof(double)) {
    void* p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    data_ = p == MAP_FAILED ? nullptr : static_cast<double*>(p);
  }
  ~SharedDoubles() {
    if (data_) ::munmap(data_, bytes_);
  }
  SharedDoubles(const SharedDoubles&) = delete;
  SharedDoubles& operator=(const SharedDoubles&) = delete;
  double* data() const { return data_; }

 private:
  size_t bytes_;
  double* data_ = nullptr;
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

}  // namespace

Expected<ExpectedOutputs> Reference::Compute(const Problem& problem, const Case& c) const {
  std::vector<HostBytes> inputs;
  std::vector<const void*> input_ptrs;
  std::vector<int64_t> input_counts, output_counts, scalars;
  ExpectedOutputs outputs;
  for (const Param& p : problem.params) {
    if (!p.is_buffer) {
      scalars.push_back(c.scalars.at(p.name));
      continue;
    }
    auto count = problem.ElementCount(p, c.scalars);
    if (!count) return count.error();
    if (p.role == Role::kInput) {
      inputs.push_back(MaterializeInput(c.inputs.at(p.name), p.dtype, *count));
      input_counts.push_back(*count);
    } else {
      outputs.emplace_back(size_t(*count), 0.0);
      output_counts.push_back(*count);
    }
  }
  for (const auto& in : inputs) input_ptrs.push_back(in.data());
  size_t total = 0;
  for (int64_t n : output_counts) total += size_t(n);
  SharedDoubles shared(total + 1);  // + the reference's return code
  if (!shared.data())
    return MakeError(ErrorCode::kInternal,
                     "cannot map memory for the reference's outputs: " + std::string(std::strerror(errno)));
  std::vector<double*> output_ptrs;
  for (size_t i = 0, offset = 0; i < outputs.size(); offset += outputs[i].size(), ++i)
    output_ptrs.push_back(shared.data() + offset);
  JudgeReferenceArgs args{int32_t(inputs.size()),  input_ptrs.data(),  input_counts.data(),
                          int32_t(outputs.size()), output_ptrs.data(), output_counts.data(),
                          int32_t(scalars.size()), scalars.data()};
  const std::string where = "the problem's reference " + name_ + " ";
  const std::string whose = " on case " + c.name + ": a bug in the problem, not in the submission";
  // The child only calls the reference and exits: no locks of the judge's other threads are taken.
  pid_t pid = ::fork();
  if (pid < 0)
    return MakeError(ErrorCode::kInternal, "cannot fork for the reference: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    shared.data()[total] = fn_(&args);
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
  if (int rc = int(shared.data()[total]); rc != 0)
    return MakeError(ErrorCode::kInternal, where + "failed (returned " + std::to_string(rc) + ")" + whose);
  for (size_t i = 0; i < outputs.size(); ++i)
    std::memcpy(outputs[i].data(), output_ptrs[i], outputs[i].size() * sizeof(double));
  return outputs;
}

}  // namespace judge

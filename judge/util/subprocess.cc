// SPDX-License-Identifier: MIT
#include "judge/util/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>

#include "judge/util/utf8.h"

namespace judge {
namespace {

using Clock = std::chrono::steady_clock;

// The child's argv or envp as execve takes it, built before fork: allocating after fork may
// deadlock on a lock another thread held.
class CStrings {
 public:
  explicit CStrings(const std::vector<std::string>& strings) {
    for (const auto& s : strings) pointers_.push_back(const_cast<char*>(s.c_str()));
    pointers_.push_back(nullptr);
  }
  char* const* get() const { return pointers_.data(); }

 private:
  std::vector<char*> pointers_;
};

[[noreturn]] void ExecChild(const CStrings& argv, const CStrings* envp, int out_fd, const ProcessOptions& options) {
  ::setpgid(0, 0);  // own process group, so a timeout kills the compiler's children too
  ::dup2(out_fd, STDOUT_FILENO);
  ::dup2(out_fd, STDERR_FILENO);
  int devnull = ::open("/dev/null", O_RDONLY);
  if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
  if (!options.working_dir.empty() && ::chdir(options.working_dir.c_str()) != 0) _exit(126);
  if (options.before_exec)
    if (int status = options.before_exec(STDERR_FILENO); status != 0) _exit(status);
  const char* program = argv.get()[0];
  if (envp)
    ::execvpe(program, argv.get(), envp->get());
  else
    ::execvp(program, argv.get());
  dprintf(STDERR_FILENO, "cannot execute %s: %s\n", program, std::strerror(errno));
  _exit(127);
}

// False at end of file.
bool DrainInto(int fd, ProcessResult& result, size_t cap) {
  char buf[8192];
  ssize_t n = ::read(fd, buf, sizeof buf);
  if (n < 0 && errno == EINTR) return true;
  if (n <= 0) return false;
  size_t room = cap > result.output.size() ? cap - result.output.size() : 0;
  result.output.append(buf, std::min<size_t>(room, size_t(n)));
  if (size_t(n) > room) result.output_truncated = true;
  return true;
}

}  // namespace

Expected<ProcessResult> RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options) {
  if (argv.empty()) return MakeError(ErrorCode::kInternal, "RunProcess: empty argv");
  const CStrings args(argv);
  const std::optional<CStrings> envp = options.env ? std::optional<CStrings>(*options.env) : std::nullopt;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return MakeError(ErrorCode::kSubprocess, std::string("pipe: ") + std::strerror(errno));
  auto start = Clock::now();
  pid_t pid = ::fork();
  if (pid < 0) {
    int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return MakeError(ErrorCode::kSubprocess, std::string("fork: ") + std::strerror(error));
  }
  if (pid == 0) ExecChild(args, envp ? &*envp : nullptr, fds[1], options);
  ::close(fds[1]);
  ProcessResult result;
  auto deadline = start + std::chrono::duration<double>(options.timeout_seconds);
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    int r = ::poll(&pfd, 1, int(std::min<long long>(left, 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r > 0 && !DrainInto(fds[0], result, options.output_cap_bytes)) break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (result.exit_code == 127 && result.output.find("cannot execute") != std::string::npos)
    return MakeError(ErrorCode::kSubprocess, result.output);
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!IsValidUtf8(result.output)) result.output = ValidUtf8(result.output);
  return result;
}

namespace {

struct SharedStart {
  int (*child)(void*);
  void* arg;
  sigset_t mask;  // the caller's, restored in the child
};

int StartChild(void* p) {
  auto* start = static_cast<SharedStart*>(p);
  // A handler is the caller's code, on memory the caller is using: none runs here. (The
  // dispositions are this process's own: no CLONE_SIGHAND.) Ignored signals stay ignored, as
  // across fork and exec.
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN || old.sa_handler == SIG_DFL) continue;
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    (void)::sigaction(sig, &dfl, nullptr);
  }
  ::pthread_sigmask(SIG_SETMASK, &start->mask, nullptr);
  return start->child(start->arg);
}

}  // namespace

Expected<pid_t> StartSharingMemory(int (*child)(void*), void* arg) {
  constexpr size_t kStackBytes = 256 * 1024;
  auto stack = std::make_unique<char[]>(kStackBytes);  // freed after the child no longer uses it (exec or exit)
  SharedStart start{child, arg, {}};
  sigset_t all;
  sigfillset(&all);
  // No signal may run a handler in the child before it resets them.
  ::pthread_sigmask(SIG_SETMASK, &all, &start.mask);
  const pid_t pid = ::clone(StartChild, stack.get() + kStackBytes, CLONE_VM | CLONE_VFORK | SIGCHLD, &start);
  const int error = errno;
  ::pthread_sigmask(SIG_SETMASK, &start.mask, nullptr);
  if (pid < 0) return MakeError(ErrorCode::kSubprocess, std::string("clone: ") + std::strerror(error));
  return pid;
}

std::string DescribeSignal(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  const char* desc = ::sigdescr_np(sig);
  std::ostringstream ss;
  ss << "SIG" << (abbrev ? abbrev : std::to_string(sig).c_str());
  if (desc) ss << " (" << desc << ")";
  return ss.str();
}

std::string FindOnPath(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    std::string candidate = (std::filesystem::path(dir.empty() ? "." : dir) / name).string();
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

}  // namespace judge

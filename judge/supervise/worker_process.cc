// SPDX-License-Identifier: MIT
#include "judge/supervise/worker_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>
#include <vector>

#include "judge/util/subprocess.h"

namespace judge {
namespace {

using Clock = std::chrono::steady_clock;

struct Pipe {
  int r = -1, w = -1;
};

Expected<Pipe> MakePipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return MakeError(ErrorCode::kSubprocess, std::string("pipe: ") + std::strerror(errno));
  return Pipe{fds[0], fds[1]};
}

// What the child needs, made before it starts: it shares the judge's memory until exec
// (StartSharingMemory), so it may not allocate.
struct WorkerExec {
  std::vector<char*> argv, envp;  // null-terminated; envp empty: the judge's environment
  Pipe req, resp, out, err;
  int exec_sync = -1;
};

// In the child: move the four pipe ends to fds 3, 4, 1, 2 and close everything else but
// `exec_sync`, whose close-on-exec tells the parent the judge's image has been replaced.
int ExecWorker(void* arg) {
  const WorkerExec& x = *static_cast<const WorkerExec*>(arg);
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  // Park the ends above 10 first so the dup2s below cannot clobber one another.
  int in = ::fcntl(x.req.r, F_DUPFD, 10), rsp = ::fcntl(x.resp.w, F_DUPFD, 10);
  int o = ::fcntl(x.out.w, F_DUPFD, 10), e = ::fcntl(x.err.w, F_DUPFD, 10);
  int sync = ::fcntl(x.exec_sync, F_DUPFD_CLOEXEC, 10);
  if (in < 0 || rsp < 0 || o < 0 || e < 0 || sync < 0) ::_exit(125);
  ::dup2(in, 3);
  ::dup2(rsp, 4);
  ::dup2(o, STDOUT_FILENO);
  ::dup2(e, STDERR_FILENO);
  int devnull = ::open("/dev/null", O_RDONLY);
  if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
  for (int fd = 5; fd < 1024; ++fd)
    if (fd != sync) ::close(fd);
  if (x.envp.empty())
    ::execv(x.argv[0], x.argv.data());
  else
    ::execve(x.argv[0], x.argv.data(), const_cast<char* const*>(x.envp.data()));
  const char* why = std::strerror(errno);  // a static string for every errno execve sets
  for (const char* part : {"cannot execute worker ", static_cast<const char*>(x.argv[0]), ": ", why, "\n"})
    (void)!::write(STDERR_FILENO, part, std::strlen(part));
  ::_exit(127);
}

}  // namespace

Expected<std::unique_ptr<WorkerProcess>> WorkerProcess::Spawn(const WorkerLaunch& launch) {
  auto req = MakePipe(), resp = MakePipe(), out = MakePipe(), err = MakePipe(), exec_sync = MakePipe();
  for (auto* p : {&req, &resp, &out, &err, &exec_sync})
    if (!*p) return p->error();
  WorkerExec x{{}, {}, *req, *resp, *out, *err, exec_sync->w};
  for (const auto& a : launch.argv) x.argv.push_back(const_cast<char*>(a.c_str()));
  x.argv.push_back(nullptr);
  for (const auto& e : launch.env) x.envp.push_back(const_cast<char*>(e.c_str()));
  if (!x.envp.empty()) x.envp.push_back(nullptr);
  auto started = StartSharingMemory(ExecWorker, &x);
  if (!started) return started.error();
  const pid_t pid = *started;
  // Until exec the child shares the judge's memory (GBs of a large case's inputs and references):
  // the memory watch must not take that for the worker's. EOF comes at exec, or when the child
  // exits without reaching it (both before StartSharingMemory returns; read for certainty).
  ::close(exec_sync->w);
  char byte;
  while (::read(exec_sync->r, &byte, 1) < 0 && errno == EINTR) {}
  ::close(exec_sync->r);
  std::unique_ptr<WorkerProcess> w(new WorkerProcess());
  w->pid_ = pid;
  ::setpgid(pid, pid);  // also here, so a kill right after fork already reaches the group
  ::close(req->r);
  ::close(resp->w);
  ::close(out->w);
  ::close(err->w);
  w->req_w_ = req->w;
  w->resp_r_ = resp->r;
  // A large call's outputs (hundreds of MB) cross this pipe: at the default 64 KiB a wake-up of
  // both processes per 64 KiB held them to ~170 MB/s on the host double. Best effort: the size is
  // capped by /proc/sys/fs/pipe-max-size, and a smaller pipe only costs time.
  (void)::fcntl(resp->r, F_SETPIPE_SZ, kResultPipeBytes);
  w->out_r_ = out->r;
  w->err_r_ = err->r;
  w->cap_ = launch.output_cap_bytes;
  w->interrupted_ = launch.interrupted;
  w->output_limit_ = launch.output_limit_bytes;
  w->memory_limit_ = launch.memory_limit_bytes;
  w->watch_descendants_ = launch.watch_descendants;
  w->decoder_ = std::make_unique<FrameDecoder>(launch.max_blob_bytes);
  return w;
}

WorkerProcess::~WorkerProcess() {
  if (!reaped_) Kill();
  CloseAll();
}

void WorkerProcess::CloseAll() {
  for (int* fd : {&req_w_, &resp_r_, &out_r_, &err_r_})
    if (*fd >= 0) {
      ::close(*fd);
      *fd = -1;
    }
}

Status WorkerProcess::Send(const Json& header) {
  // A worker that died makes write() fail with EPIPE; the judge ignores SIGPIPE (see main).
  return WriteFrame(req_w_, header);
}

void WorkerProcess::Capture(int& fd, CapturedStream& stream) {
  if (fd < 0) return;
  char buf[16384];
  ssize_t n = ::read(fd, buf, sizeof buf);
  if (n < 0 && errno == EINTR) return;
  if (n <= 0) {
    ::close(fd);
    fd = -1;
    return;
  }  // closed: poll() ignores negative fds
  stream.total_bytes += size_t(n);
  size_t room = cap_ > stream.text.size() ? cap_ - stream.text.size() : 0;
  stream.text.append(buf, std::min(room, size_t(n)));
}

WorkerEvent WorkerProcess::Next(double timeout_seconds) {
  if (decoder_->HasFrame()) return WorkerEvent::WithFrame(decoder_->Pop());
  auto deadline = Clock::now() + std::chrono::duration<double>(timeout_seconds);
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return WorkerEvent::Of(WorkerEvent::Kind::kTimeout);
    if (interrupted_ && interrupted_->load()) return WorkerEvent::Of(WorkerEvent::Kind::kInterrupted);
    if (output_limit_ && out_.total_bytes + err_.total_bytes > output_limit_)
      return WorkerEvent::Of(WorkerEvent::Kind::kOutputLimit);
    // /proc costs tens of microseconds: looked at every few milliseconds, not on every read.
    if (memory_limit_ && Clock::now() >= next_memory_check_) {
      next_memory_check_ = Clock::now() + std::chrono::milliseconds(5);
      if (ResidentBytes() > memory_limit_) return WorkerEvent::Of(WorkerEvent::Kind::kMemoryLimit);
    }
    pollfd fds[3] = {{resp_r_, POLLIN, 0}, {out_r_, POLLIN, 0}, {err_r_, POLLIN, 0}};
    int r = ::poll(fds, 3, int(std::min<long long>(left, 50)));
    if (r < 0 && errno != EINTR) return WorkerEvent::Broken(std::strerror(errno));
    if (r <= 0) continue;
    if (fds[1].revents & (POLLIN | POLLHUP)) Capture(out_r_, out_);
    if (fds[2].revents & (POLLIN | POLLHUP)) Capture(err_r_, err_);
    if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    auto n = decoder_->ReadFrom(resp_r_);  // a large blob straight into its frame
    if (!n) return WorkerEvent::Broken(n.error().message);
    if (*n < 0 && errno == EINTR) continue;
    if (*n <= 0) return Reap(5.0);  // the worker closed its end: it is exiting or dead
    if (decoder_->HasFrame()) return WorkerEvent::WithFrame(decoder_->Pop());
  }
}

WorkerEvent WorkerProcess::Reap(double wait_seconds) {
  WorkerEvent ev = WorkerEvent::Of(WorkerEvent::Kind::kExited);
  auto deadline = Clock::now() + std::chrono::duration<double>(wait_seconds);
  int status = 0;
  for (;;) {
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) break;
    if (r < 0 && errno != EINTR) {
      reaped_ = true;
      ev.error = std::strerror(errno);
      return ev;
    }
    if (Clock::now() > deadline) ::kill(-pid_, SIGKILL);
    // Keep draining stdout/stderr so a worker blocked on a full pipe can finish exiting.
    pollfd fds[2] = {{out_r_, POLLIN, 0}, {err_r_, POLLIN, 0}};
    if (::poll(fds, 2, 20) > 0) {
      if (fds[0].revents & (POLLIN | POLLHUP)) Capture(out_r_, out_);
      if (fds[1].revents & (POLLIN | POLLHUP)) Capture(err_r_, err_);
    }
  }
  reaped_ = true;
  ::kill(-pid_, SIGKILL);  // anything the worker left behind in its group goes too
  DrainOutput();           // last words
  if (WIFSIGNALED(status)) ev.signal = WTERMSIG(status);
  if (WIFEXITED(status)) ev.exit_code = WEXITSTATUS(status);
  return ev;
}

namespace {

uint64_t ResidentBytesOf(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/statm", int(pid));
  FILE* f = std::fopen(path, "r");
  if (!f) return 0;
  unsigned long long pages_total = 0, pages_resident = 0;
  int n = std::fscanf(f, "%llu %llu", &pages_total, &pages_resident);
  std::fclose(f);
  if (n != 2) return 0;
  return uint64_t(pages_resident) * uint64_t(::sysconf(_SC_PAGESIZE));
}

// The children of every thread of `pid` (/proc/PID/task/TID/children), appended to `out`.
void ChildrenOf(pid_t pid, std::vector<pid_t>& out) {
  char dir[64];
  std::snprintf(dir, sizeof dir, "/proc/%d/task", int(pid));
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator(dir, ec)) {
    FILE* f = std::fopen((task.path() / "children").c_str(), "r");
    if (!f) continue;
    for (int child = 0; std::fscanf(f, "%d", &child) == 1;) out.push_back(pid_t(child));
    std::fclose(f);
  }
}

// A tool's process tree is small (its front end, the worker); a bound keeps a fork bomb cheap to
// look at (the rlimit on processes stops it anyway).
constexpr size_t kMaxWatchedProcesses = 64;

}  // namespace

// The worker's resident set (VmRSS), polled while waiting: an address-space rlimit would break
// CUDA, which reserves huge virtual ranges, so memory is watched instead of capped. Under a tool,
// the tool and all its descendants.
uint64_t WorkerProcess::ResidentBytes() {
  uint64_t bytes = ResidentBytesOf(pid_);
  if (watch_descendants_) {
    std::vector<pid_t> todo;
    ChildrenOf(pid_, todo);
    for (size_t seen = 1; !todo.empty() && seen < kMaxWatchedProcesses; ++seen) {
      const pid_t p = todo.back();
      todo.pop_back();
      bytes += ResidentBytesOf(p);
      ChildrenOf(p, todo);
    }
  }
  peak_rss_ = std::max(peak_rss_, bytes);
  return bytes;
}

void WorkerProcess::DrainOutput() {
  for (int i = 0; i < 64; ++i) {
    pollfd fds[2] = {{out_r_, POLLIN, 0}, {err_r_, POLLIN, 0}};
    if (::poll(fds, 2, 0) <= 0) return;
    if (fds[0].revents & (POLLIN | POLLHUP)) Capture(out_r_, out_);
    if (fds[1].revents & (POLLIN | POLLHUP)) Capture(err_r_, err_);
  }
}

void WorkerProcess::Kill() {
  if (reaped_ || pid_ <= 0) return;
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  Reap(10.0);
}

void WorkerProcess::Finish(double grace_seconds) {
  if (reaped_) return;
  if (req_w_ >= 0) {
    ::close(req_w_);
    req_w_ = -1;
  }
  Reap(grace_seconds);
}

}  // namespace judge

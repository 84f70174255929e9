// SPDX-License-Identifier: MIT
#include "judge/serve/grader.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "judge/batch/batch.h"
#include "judge/core/verdict.h"
#include "judge/problem/problem.h"
#include "judge/report/reporter.h"
#include "judge/util/fs.h"

namespace judge::serve {
namespace fs = std::filesystem;

namespace {

// Grading yields the CPU to the service's requests: a status poll must not wait behind a compile or
// a case's preparation (the API answers in milliseconds; a grading takes seconds either way).
// Linux keeps a nice value per thread, and the processes a thread starts (nvcc, the worker) inherit
// it. On a GPU host a grading's timed calls run alone on their core, so this costs them nothing
// unless the CPU is saturated, when the requests are what should come first.
inline constexpr int kGradingNice = 10;
inline constexpr int kFinishAttempts = 6;  // waits of 1, 2, 4, 8, 16 s between them

void YieldToRequests() {
  if (::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kGradingNice) != 0)
    spdlog::debug("could not lower a grading thread's priority: {}", std::strerror(errno));
}

// The source's file name in its work folder: chosen by the judge, never by the request (the
// uploaded name is shown in reports only, through NameSubmission).
std::string SourceFileName(DeviceKind device) {
  return device == DeviceKind::kHost ? "submission.cc" : "submission.cu";
}

}  // namespace

struct Grader::Held {
  Job job;
  std::string path;                 // the source in its work folder
  std::atomic<bool> cancel{false};  // Stop(), or the lease was lost
};

Result ResultOf(const RunReport& report) {
  Result r;
  r.verdict = std::string(VerdictShort(report.verdict));
  if (const CaseResult* perf = report.PrimaryPerformanceCase(); perf && report.verdict == Verdict::kAccepted) {
    r.figure_ms = perf->FigureMs() > 0 ? perf->FigureMs() : -1;
    r.flagged = !perf->Ranks();
  }
  r.report_json = ReportToJson(report).dump();
  return r;
}

Result JudgeFaultResult(const std::string& problem, const std::string& why) {
  RunReport report;
  report.problem = problem;
  report.verdict = Verdict::kInternalError;
  report.exit_code = ExitCode::kInternalError;
  report.message = "the judge could not grade this submission (not the submission's fault): " + why;
  return ResultOf(report);
}

std::string CaseProgress(size_t index, size_t total, const std::string& name, std::string_view verdict) {
  return "case " + std::to_string(index + 1) + "/" + std::to_string(total) + " " + name + " " + std::string(verdict);
}

Grader::Grader(Store& store, GraderOptions options) : store_(store), options_(std::move(options)) {}

Grader::~Grader() { Stop(); }

Status Grader::Start() {
  if (!options_.device) return MakeError(ErrorCode::kInternal, "the grader was started without a probed device");
  const DeviceFacts& facts = *options_.device;
  runners_ = options_.base.device == DeviceKind::kCuda ? std::max(1, facts.info.device_count) : 1;
  target_ = CompileTarget(options_.base, &facts);
  if (options_.compile_jobs <= 0) options_.compile_jobs = int(std::max(1u, std::thread::hardware_concurrency()));
  std::error_code ec;
  fs::remove_all(options_.work_dir, ec);  // what a killed grader left: its jobs go back to the queue below
  fs::create_directories(options_.work_dir, ec);
  if (ec) return MakeError(ErrorCode::kIo, "cannot create the work folder " + options_.work_dir + ": " + ec.message());
  auto released = store_.ReleaseAll(options_.worker_name);
  if (!released) return released.error();
  if (*released > 0) spdlog::info("{} interrupted grading(s) of {} back in the queue", *released, options_.worker_name);
  for (int i = 0; i < options_.compile_jobs; ++i) threads_.emplace_back([this] { CompileLoop(); });
  for (int gpu = 0; gpu < runners_; ++gpu) threads_.emplace_back([this, gpu] { RunLoop(gpu); });
  threads_.emplace_back([this] { HeartbeatLoop(); });
  return Status::Ok();
}

void Grader::Wake() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++wakes_;
  }
  queue_changed_.notify_all();
}

void Grader::Stop() {
  if (stopping_.exchange(true)) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& held : in_hand_) held->cancel = true;
  }
  queue_changed_.notify_all();
  ready_to_run_.notify_all();
  stopped_.notify_all();
  for (auto& t : threads_) t.join();
  threads_.clear();
  // Jobs claimed and not finished: back to the queue now rather than when their lease runs out.
  if (auto released = store_.ReleaseAll(options_.worker_name); !released)
    spdlog::warn("could not give the jobs in hand back to the queue ({}); they return when their lease runs out",
                 released.error().message);
}

void Grader::CompileLoop() {
  YieldToRequests();
  // A job is claimed only while the runners have room for it soon: the queue stays in the store,
  // where the other hosts of a shared queue can take it.
  const size_t room = size_t(runners_) * 2;
  while (!Stopping()) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      queue_changed_.wait(lock, [&] { return Stopping() || waiting_to_run_ < room; });
      if (Stopping()) return;
      ++waiting_to_run_;  // counted from the claim: the compiles in progress take room too
    }
    auto job = store_.Claim(options_.worker_name, options_.lease_seconds);
    if (!job || !*job) {
      if (!job) spdlog::warn("cannot read the queue: {}", job.error().message);
      std::unique_lock<std::mutex> lock(mu_);
      --waiting_to_run_;
      queue_changed_.wait_for(lock, std::chrono::duration<double>(kQueuePollSeconds),
                              [&] { return Stopping() || wakes_ > 0; });
      wakes_ = 0;
      continue;
    }
    auto held = std::make_shared<Held>();
    held->job = std::move(**job);
    {
      std::lock_guard<std::mutex> lock(mu_);
      in_hand_.push_back(held);
    }
    // One folder per claim: a rejudge can hand the same submission to this grader again while its
    // first grading is still being interrupted, and each removes only its own folder.
    const fs::path dir =
        fs::path(options_.work_dir) / (std::to_string(held->job.submission_id) + "-" + std::to_string(held->job.lease));
    held->path = (dir / SourceFileName(options_.base.device)).string();
    std::error_code ec;
    fs::create_directories(dir, ec);
    Status written = ec ? Status(MakeError(ErrorCode::kIo, "cannot create " + dir.string() + ": " + ec.message()))
                        : WriteFileAtomic(held->path, held->job.source);
    if (written) {
      (void)store_.SetStage(held->job.submission_id, held->job.lease, SubmissionStatus::kCompiling, "");
      auto problem = LoadProblem((fs::path(options_.base.root) / "problems").string(), held->job.problem);
      // A failure here is found again, and reported, when the runner grades it; this only fills the cache.
      if (problem && !options_.base.cache_dir.empty())
        (void)BuildOnly(held->path, options_.base.device, target_, options_.base.cache_dir, *problem,
                        options_.base.sandbox);
    } else {
      spdlog::error("submission {}: {}", held->job.submission_id, written.error().message);
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      run_queue_.push_back(held);
    }
    ready_to_run_.notify_one();
  }
}

void Grader::RunLoop(int gpu) {
  YieldToRequests();
  while (true) {
    std::shared_ptr<Held> held;
    {
      std::unique_lock<std::mutex> lock(mu_);
      ready_to_run_.wait(lock, [&] { return Stopping() || !run_queue_.empty(); });
      if (Stopping()) return;
      held = run_queue_.front();
      run_queue_.pop_front();
      --waiting_to_run_;
    }
    queue_changed_.notify_all();  // room for another claim
    Grade(*held, gpu);
    std::error_code ec;
    fs::remove_all(fs::path(held->path).parent_path(), ec);
    std::lock_guard<std::mutex> lock(mu_);
    std::erase(in_hand_, held);
  }
}

void Grader::Grade(Held& held, int gpu) {
  const Job& job = held.job;
  auto stage = [&](SubmissionStatus status, const std::string& progress) {
    auto current = store_.SetStage(job.submission_id, job.lease, status, progress);
    if (current && !*current) held.cancel = true;  // another grader holds it now: stop
  };
  stage(SubmissionStatus::kRunning, "");
  if (held.cancel) return;
  RunOptions o = options_.base;
  o.problem = job.problem;
  o.submission = held.path;
  o.known_device = options_.device;
  o.gpu = runners_ > 1 ? gpu : -1;
  o.interrupted = &held.cancel;
  o.on_stage = nullptr;
  o.on_case_done = [&](size_t i, size_t n, const CaseResult& c) {
    stage(SubmissionStatus::kRunning, CaseProgress(i, n, c.name, VerdictShort(c.verdict)));
  };
  Result result;
  auto report = RunSubmission(o);
  if (held.cancel) return;  // a partial run is not a result: the job is back in the queue or another's
  if (report) {
    NameSubmission(*report, held.path, job.filename);
    result = ResultOf(*report);
  } else {
    // The problem was checked when the submission came in, the device when the service started:
    // what is left is the judge's fault.
    spdlog::error("submission {}: {}", job.submission_id, report.error().message);
    result = JudgeFaultResult(job.problem, report.error().message);
  }
  // Finish is idempotent under the lease: a database that restarts or fails over is given time
  // (about a minute) rather than the result lost.
  Expected<bool> finished = false;
  for (int attempt = 0, wait_s = 1; attempt < kFinishAttempts; ++attempt, wait_s *= 2) {
    finished = store_.Finish(job.submission_id, job.lease, result);
    if (finished || Stopping()) break;
    spdlog::warn("submission {}: the result could not be recorded ({}); again in {} s", job.submission_id,
                 finished.error().message, wait_s);
    std::unique_lock<std::mutex> lock(mu_);
    stopped_.wait_for(lock, std::chrono::seconds(wait_s), [&] { return Stopping(); });
  }
  if (!finished)
    spdlog::error("submission {}: the result could not be recorded; it returns to the queue when its lease runs out",
                  job.submission_id);
  else if (!*finished)
    spdlog::info("submission {}: its lease passed to another grader; this result is dropped", job.submission_id);
}

void Grader::HeartbeatLoop() {
  const auto every = std::chrono::duration<double>(options_.lease_seconds / 3);
  std::unique_lock<std::mutex> lock(mu_);
  while (!Stopping()) {
    stopped_.wait_for(lock, every, [&] { return Stopping(); });
    if (Stopping()) return;
    std::vector<int64_t> leases;
    for (const auto& held : in_hand_) leases.push_back(held->job.lease);
    lock.unlock();
    if (auto st = store_.Heartbeat(options_.worker_name, leases, options_.lease_seconds); !st)
      spdlog::warn("lease heartbeat failed: {}", st.error().message);
    lock.lock();
  }
}

}  // namespace judge::serve

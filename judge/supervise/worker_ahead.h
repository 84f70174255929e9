// SPDX-License-Identifier: MIT
#pragma once
// Worker start and exit off the critical path (ladder, batch, compare). Starting a worker (fork,
// exec, a CUDA context, the empty-window calibration) takes ~0.25 s on the H200 and its exit (the
// context's teardown) ~0.19 s: 0.45 s per submission, a fifth of grading all the samples. So the
// next submission's worker is started while the current one runs its first cases, and a finished
// worker exits on another thread.
//
// Only the judge's own code runs in a worker started ahead: the submission is copied into its
// folder and loaded, after the sandbox closes, when a supervisor takes it. Both kinds of
// background work touch the GPU, so timed work first waits for them (Quiesce).
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "judge/protocol/messages.h"
#include "judge/supervise/worker_process.h"

namespace judge {

// How to start a worker and open its device; everything but its private folder, made per worker.
struct WorkerRecipe {
  std::vector<std::string> argv;
  std::vector<std::string> env;  // without HOME, TMPDIR, CUDA_CACHE_PATH: those point into the folder
  WorkerLaunch limits;           // caps and limits (argv and env are filled per worker)
  InitMessage init;              // the init request; its sandbox policy gets the folder too
  double init_seconds = 60;
  bool chown_to_nobody = false;  // root with the sandbox on: the worker drops to nobody
  // Workers from the same recipe are interchangeable.
  std::string Key() const;
  WorkerLaunch Launch(const std::string& scratch) const;
  InitMessage InitRequest(const std::string& scratch) const;
};

// A private folder for one worker (0700; nobody's when `chown_to_nobody`).
Expected<std::string> MakeWorkerScratch(bool chown_to_nobody);

struct StartedWorker {
  std::unique_ptr<WorkerProcess> process;
  std::string scratch;
};

class WorkerAhead {
 public:
  WorkerAhead() = default;
  ~WorkerAhead();  // kills spares nobody took; waits for exits
  WorkerAhead(const WorkerAhead&) = delete;
  WorkerAhead& operator=(const WorkerAhead&) = delete;

  // Starts one worker from `recipe` on another thread, unless one is already there or starting.
  void Prepare(const WorkerRecipe& recipe);
  // A worker started from an equal recipe, when one started well (waits for it to finish starting).
  std::optional<StartedWorker> Take(const WorkerRecipe& recipe);
  // Lets `worker` exit on another thread and removes its folder afterwards.
  void Retire(StartedWorker worker, double grace_seconds);
  // Waits until no worker is starting or exiting: nothing of the judge's runs on the GPU beside
  // what comes next.
  void Quiesce();

  size_t started() const;  // workers started ahead so far (for tests)
  size_t taken() const;    // of which taken by a supervisor

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::future<std::optional<StartedWorker>>> spares_;  // by recipe key
  std::vector<std::future<void>> exits_;
  size_t started_ = 0, taken_ = 0;
};

}  // namespace judge

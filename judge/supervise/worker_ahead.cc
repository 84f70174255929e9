// SPDX-License-Identifier: MIT
#include "judge/supervise/worker_ahead.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "judge/util/fs.h"

namespace judge {
namespace {

void Drop(StartedWorker& w) {
  w.process->Kill();
  RemoveTree(w.scratch);
}

// A worker is forked by the thread that calls Prepare (the child's PR_SET_PDEATHSIG fires when
// the thread that forked it ends, so never a short-lived helper thread); only the wait for its
// device happens on another thread. nullopt on any failure: a supervisor that finds no spare
// starts its own worker, and reports what goes wrong there.
std::optional<StartedWorker> Spawn(const WorkerRecipe& recipe) {
  auto scratch = MakeWorkerScratch(recipe.chown_to_nobody);
  if (!scratch) return std::nullopt;
  auto spawned = WorkerProcess::Spawn(recipe.Launch(*scratch));
  if (!spawned) {
    RemoveTree(*scratch);
    return std::nullopt;
  }
  StartedWorker w{std::move(*spawned), *scratch};
  if (!w.process->Send(Encode(recipe.InitRequest(*scratch)).header)) {
    Drop(w);
    return std::nullopt;
  }
  return w;
}

std::optional<StartedWorker> AwaitDevice(StartedWorker w, double seconds) {
  WorkerEvent ev = w.process->Next(seconds);
  if (ev.kind == WorkerEvent::Kind::kFrame) {
    auto message = Decode(std::move(ev.frame));
    if (message && KindOf(*message) == MessageKind::kDevice) return w;
  }
  Drop(w);
  return std::nullopt;
}

}  // namespace

std::string WorkerRecipe::Key() const {
  Json k = {{"argv", argv},
            {"env", env},
            {"init", Encode(init).header},
            {"out", limits.output_cap_bytes},
            {"blob", limits.max_blob_bytes},
            {"output_limit", limits.output_limit_bytes},
            {"memory", limits.memory_limit_bytes},
            {"watch_descendants", limits.watch_descendants},
            {"nobody", chown_to_nobody}};
  return k.dump();
}

WorkerLaunch WorkerRecipe::Launch(const std::string& scratch) const {
  WorkerLaunch launch = limits;
  launch.argv = argv;
  launch.env = {"HOME=" + scratch, "TMPDIR=" + scratch, "CUDA_CACHE_PATH=" + scratch + "/.nv"};
  launch.env.insert(launch.env.end(), env.begin(), env.end());
  return launch;
}

InitMessage WorkerRecipe::InitRequest(const std::string& scratch) const {
  InitMessage request = init;
  request.sandbox.scratch_dir = scratch;
  return request;
}

Expected<std::string> MakeWorkerScratch(bool chown_to_nobody) {
  auto dir = MakeTempDir(std::filesystem::temp_directory_path().string(), "gpu-judge-worker-");
  if (!dir) return dir.error();
  ::chmod(dir->c_str(), 0700);
  if (chown_to_nobody) (void)::chown(dir->c_str(), kNobodyUid, kNobodyUid);
  return *dir;
}

WorkerAhead::~WorkerAhead() {
  std::map<std::string, std::future<std::optional<StartedWorker>>> spares;
  {
    std::lock_guard<std::mutex> lock(mu_);
    spares.swap(spares_);
  }
  for (auto& [key, future] : spares)
    if (auto w = future.get()) Drop(*w);
  Quiesce();
}

void WorkerAhead::Prepare(const WorkerRecipe& recipe) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string key = recipe.Key();
  if (spares_.count(key)) return;
  // A spare belongs to no run yet: it watches no run's stop flag (the run that prepares it may end,
  // and its flag with it, before the spare is taken); the run that takes it gives it its own.
  WorkerRecipe spare = recipe;
  spare.limits.interrupted = nullptr;
  auto spawned = Spawn(spare);
  if (!spawned) return;
  spares_.emplace(key, std::async(std::launch::async, AwaitDevice, std::move(*spawned), recipe.init_seconds));
  ++started_;
}

std::optional<StartedWorker> WorkerAhead::Take(const WorkerRecipe& recipe) {
  std::future<std::optional<StartedWorker>> future;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = spares_.find(recipe.Key());
    if (it == spares_.end()) return std::nullopt;
    future = std::move(it->second);
    spares_.erase(it);
  }
  auto w = future.get();
  if (w) {
    std::lock_guard<std::mutex> lock(mu_);
    ++taken_;
  }
  return w;
}

void WorkerAhead::Retire(StartedWorker worker, double grace_seconds) {
  auto exit = std::async(std::launch::async, [w = std::move(worker), grace_seconds]() mutable {
    w.process->Finish(grace_seconds);
    RemoveTree(w.scratch);
  });
  std::lock_guard<std::mutex> lock(mu_);
  exits_.push_back(std::move(exit));
}

void WorkerAhead::Quiesce() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [key, future] : spares_) future.wait();
  for (auto& exit : exits_) exit.wait();
  exits_.clear();
}

size_t WorkerAhead::started() const {
  std::lock_guard<std::mutex> lock(mu_);
  return started_;
}

size_t WorkerAhead::taken() const {
  std::lock_guard<std::mutex> lock(mu_);
  return taken_;
}

}  // namespace judge

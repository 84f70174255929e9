// SPDX-License-Identifier: MIT
#pragma once
// Turns on the GPU for submissions judged side by side (check-problem and ladder --jobs). A timed
// call must have the GPU to itself: another submission's kernels, a worker's CUDA context starting
// or ending, or a reference's host threads beside it would be in its time. So timed work takes the
// exclusive turn, and all other GPU or heavy host work of the runs (correctness cases, their
// checks, workers' exits) a shared one; an exclusive turn waits for the shared ones held and new
// shared ones wait for it, so a timed case is never starved by a stream of correctness cases.
//
// Background work the runs start inside a turn (a worker started ahead, one exiting) may outlive
// it: the exclusive holder waits for that itself (WorkerAhead::Quiesce), as a lone run does.
#include <condition_variable>
#include <mutex>

namespace judge {

class GpuTurns {
 public:
  // Held until destroyed; an empty one (from a null GpuTurns) holds nothing.
  class Turn {
   public:
    Turn() = default;
    Turn(Turn&& other) noexcept : turns_(other.turns_), exclusive_(other.exclusive_) { other.turns_ = nullptr; }
    Turn& operator=(Turn&& other) noexcept;
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;
    ~Turn() { Release(); }
    void Release();

   private:
    friend class GpuTurns;
    Turn(GpuTurns* turns, bool exclusive) : turns_(turns), exclusive_(exclusive) {}
    GpuTurns* turns_ = nullptr;
    bool exclusive_ = false;
  };

  // A thread holds one turn at a time: asking for a second while holding one can wait forever.
  Turn Shared();
  Turn Exclusive();

  // Null-safe forms: a run alone (no GpuTurns) takes no turns.
  static Turn Shared(GpuTurns* turns) { return turns ? turns->Shared() : Turn(); }
  static Turn Exclusive(GpuTurns* turns) { return turns ? turns->Exclusive() : Turn(); }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  int shared_ = 0;            // shared turns held
  int exclusive_wanted_ = 0;  // exclusive turns waited for or held
  bool exclusive_held_ = false;
};

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/supervise/gpu_turns.h"

namespace judge {

GpuTurns::Turn& GpuTurns::Turn::operator=(Turn&& other) noexcept {
  if (this != &other) {
    Release();
    turns_ = other.turns_;
    exclusive_ = other.exclusive_;
    other.turns_ = nullptr;
  }
  return *this;
}

void GpuTurns::Turn::Release() {
  if (!turns_) return;
  {
    std::lock_guard<std::mutex> lock(turns_->mu_);
    if (exclusive_) {
      turns_->exclusive_held_ = false;
      --turns_->exclusive_wanted_;
    } else {
      --turns_->shared_;
    }
  }
  turns_->changed_.notify_all();
  turns_ = nullptr;
}

GpuTurns::Turn GpuTurns::Shared() {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait(lock, [&] { return exclusive_wanted_ == 0; });
  ++shared_;
  return Turn(this, false);
}

GpuTurns::Turn GpuTurns::Exclusive() {
  std::unique_lock<std::mutex> lock(mu_);
  ++exclusive_wanted_;
  changed_.wait(lock, [&] { return shared_ == 0 && !exclusive_held_; });
  exclusive_held_ = true;
  return Turn(this, true);
}

}  // namespace judge

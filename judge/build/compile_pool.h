// SPDX-License-Identifier: MIT
#pragma once
// A fixed pool of compile threads (batch, ladder): nvcc takes seconds per submission on one core,
// so every submission is compiled into the cache up front, in parallel, while the GPU grades the
// ones already built in order.
#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <thread>
#include <vector>

namespace judge {

// Each job's future resolves when it is done (its build is in the cache).
class CompilePool {
 public:
  CompilePool(int threads, std::vector<std::function<void()>> jobs) : jobs_(std::move(jobs)) {
    for (size_t i = 0; i < jobs_.size(); ++i) done_.push_back(std::make_shared<std::promise<void>>());
    for (auto& d : done_) futures_.push_back(d->get_future().share());
    for (int t = 0; t < threads; ++t) threads_.emplace_back([this] { Work(); });
  }
  ~CompilePool() {
    for (auto& t : threads_) t.join();
  }
  void Wait(size_t i) const { futures_[i].wait(); }
  void Cancel() { next_ = jobs_.size(); }  // compiles not started are dropped; nobody waits for them

 private:
  void Work() {
    for (size_t i = next_++; i < jobs_.size(); i = next_++) {
      jobs_[i]();
      done_[i]->set_value();
    }
  }
  std::vector<std::function<void()>> jobs_;
  std::vector<std::shared_ptr<std::promise<void>>> done_;
  std::vector<std::shared_future<void>> futures_;
  std::atomic<size_t> next_{0};
  std::vector<std::thread> threads_;
};

}  // namespace judge

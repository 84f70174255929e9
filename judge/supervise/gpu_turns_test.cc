// SPDX-License-Identifier: MIT
#include "judge/supervise/gpu_turns.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

namespace judge {
namespace {

using namespace std::chrono_literals;

// Many threads, each taking turns of both kinds: an exclusive holder never sees another holder of
// either kind, and shared ones overlap.
TEST(GpuTurns, AnExclusiveTurnIsAlone) {
  GpuTurns turns;
  std::atomic<int> shared{0}, exclusive{0}, most_shared{0};
  std::atomic<bool> overlap{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 40; ++i) {
        if ((i + t) % 5 == 0) {
          auto turn = turns.Exclusive();
          if (exclusive.fetch_add(1) != 0 || shared.load() != 0) overlap = true;
          std::this_thread::sleep_for(200us);
          exclusive.fetch_sub(1);
        } else {
          auto turn = turns.Shared();
          const int now = shared.fetch_add(1) + 1;
          if (exclusive.load() != 0) overlap = true;
          int seen = most_shared.load();
          while (now > seen && !most_shared.compare_exchange_weak(seen, now)) {}
          std::this_thread::sleep_for(200us);
          shared.fetch_sub(1);
        }
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_FALSE(overlap.load());
  EXPECT_GT(most_shared.load(), 1);  // shared turns do run together
}

// A timed case waits for the correctness cases running, but new ones wait for it: a stream of
// shared turns cannot starve it.
TEST(GpuTurns, AWaitingExclusiveTurnGoesBeforeNewSharedOnes) {
  GpuTurns turns;
  auto first = turns.Shared();
  std::atomic<bool> exclusive_done{false}, late_shared_saw_it{false};
  std::thread timed([&] {
    auto turn = turns.Exclusive();
    exclusive_done = true;
  });
  std::this_thread::sleep_for(50ms);  // the exclusive turn is now waited for
  std::thread late([&] {
    auto turn = turns.Shared();
    late_shared_saw_it = exclusive_done.load();
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(exclusive_done.load());  // the shared turn held keeps it waiting
  first.Release();
  timed.join();
  late.join();
  EXPECT_TRUE(late_shared_saw_it.load());
}

TEST(GpuTurns, NoTurnsMeansNoWaitingAndAMovedTurnIsReleasedOnce) {
  auto a = GpuTurns::Exclusive(nullptr);
  auto b = GpuTurns::Exclusive(nullptr);  // would wait forever on a real GpuTurns
  GpuTurns turns;
  {
    auto held = turns.Exclusive();
    GpuTurns::Turn moved = std::move(held);
  }
  // Released once: both kinds can be had again (a count released twice would block shared ones).
  auto shared = std::async(std::launch::async, [&] { auto t = turns.Shared(); });
  EXPECT_EQ(shared.wait_for(5s), std::future_status::ready);
  auto exclusive = std::async(std::launch::async, [&] { auto t = turns.Exclusive(); });
  EXPECT_EQ(exclusive.wait_for(5s), std::future_status::ready);
}

}  // namespace
}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// Splitting a pass over a large array between the machine's cores. The judge's own passes over a
// large case (generating inputs, copying and checking outputs of hundreds of MB) would otherwise
// run on one core while a GPU runner waits for them. Each chunk's result is kept apart and handed
// back in index order, so a caller that merges them in that order gets the bits a single pass
// would give.
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <future>
#include <thread>
#include <vector>

namespace judge {

// Below this many elements a pass stays on the calling thread: starting threads costs more.
inline constexpr int64_t kParallelMinElements = int64_t(1) << 20;
inline constexpr unsigned kParallelMaxThreads = 16;

// How many chunks ParallelChunks splits `count` elements into (1 for small passes).
inline unsigned ParallelChunkCount(int64_t count) {
  if (count < kParallelMinElements) return 1;
  const unsigned cores = std::clamp(std::thread::hardware_concurrency(), 1u, kParallelMaxThreads);
  return unsigned(std::min<int64_t>(cores, (count + kParallelMinElements / 4 - 1) / (kParallelMinElements / 4)));
}

// Runs part(chunk, begin, end) over [0, count) in ParallelChunkCount(count) contiguous chunks, the
// first on the calling thread; returns when all are done. Chunk c covers an earlier range than c+1.
template <typename F>
void ParallelChunks(int64_t count, F part) {
  const unsigned chunks = ParallelChunkCount(count);
  const int64_t per = chunks ? (count + chunks - 1) / chunks : 0;
  std::vector<std::thread> pool;
  for (unsigned c = 1; c < chunks; ++c) {
    const int64_t b = std::min<int64_t>(count, c * per), e = std::min<int64_t>(count, b + per);
    if (b < e) pool.emplace_back([&part, c, b, e] { part(c, b, e); });
  }
  if (count > 0) part(0u, int64_t(0), std::min<int64_t>(count, per));
  for (auto& t : pool) t.join();
}

// Runs task(i) for every i in [0, count) on up to `workers` threads (the calling thread one of
// them), each taking the next index when done; returns when all are done. For independent tasks
// whose results the caller keeps by index and merges in index order, so the outcome is the one a
// loop would give.
template <typename F>
void ParallelFor(size_t count, unsigned workers, F task) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < count;) task(i);
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < std::min<size_t>(std::max(workers, 1u), count); ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

// memcpy on several cores: the first touch of a fresh destination (its page faults) is most of
// the time a copy of hundreds of MB takes, and it is spread with it.
inline void ParallelCopy(void* dst, const void* src, size_t bytes) {
  ParallelChunks(int64_t(bytes), [&](unsigned, int64_t b, int64_t e) {
    std::memcpy(static_cast<char*>(dst) + b, static_cast<const char*>(src) + b, size_t(e - b));
  });
}

// Host work beside another run's timed calls (cases prepared ahead, the checks after a timed case)
// runs at this niceness, with the threads and processes it starts: a runner's own thread must wake
// at once when a timed call's outputs arrive, as its clock times the call (rules/case_timing.h).
// With 2 cores saturated by nice-10 memory-bound work, a nice-0 pipe round trip's fastest figure
// rose by ~2 us and its 99th percentile not at all; at nice 0 the 99th became 2-6 ms
// (docs/results/cpu-2026-12-05-nice-latency/).
inline constexpr int kBesideTimingNice = 10;

// Linux keeps a nice value per thread, and what the thread starts inherits it. Raising it back takes
// a privilege: for a thread that ends with its work.
inline void LowerThreadPriority(int nice) { (void)::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), nice); }

// Runs `work` on a thread of its own at `nice` and waits for it; the calling thread keeps its
// priority. Not for work that starts a process meant to outlive it: a child dying with its parent
// (PR_SET_PDEATHSIG) dies with that thread.
template <typename F>
void RunAtNice(int nice, F work) {
  std::async(std::launch::async, [&] {
    LowerThreadPriority(nice);
    work();
  }).get();
}

}  // namespace judge

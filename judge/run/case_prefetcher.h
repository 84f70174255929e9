// SPDX-License-Identifier: MIT
#pragma once
// Preparing a case (its input variants and their expected outputs) is up to seconds of host work
// for a large case; a run prepares the next ones on other threads while the GPU works on the
// current one.
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <utility>

#include "judge/check/case_preparation.h"
#include "judge/supervise/gpu_turns.h"
#include "judge/util/expected.h"

namespace judge {

// Two cases ahead: a short case before a large one would hide too little.
inline constexpr size_t kPrepareAhead = 2;

class CasePrefetcher {
 public:
  using Prepare = std::function<Expected<PreparedCase>(size_t)>;
  explicit CasePrefetcher(Prepare prepare) : prepare_(std::move(prepare)) {}
  // Starts preparing case `index` on its own thread (once), at kBesideTimingNice.
  void Start(size_t index);
  // Case `index`, prepared ahead or now. Made now, it is heavy host work, which a timed case of
  // another run must not share: it is done in a shared turn of `turns` (null: no turns). Made
  // ahead, it is only waited for, in no turn: a shared turn would queue the run behind every
  // exclusive turn wanted, and a performance case would then queue again for its own.
  Expected<PreparedCase> Take(size_t index, GpuTurns* turns = nullptr);

 private:
  Prepare prepare_;
  std::deque<std::pair<size_t, std::future<Expected<PreparedCase>>>> pending_;
};

}  // namespace judge

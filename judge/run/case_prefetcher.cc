// SPDX-License-Identifier: MIT
#include "judge/run/case_prefetcher.h"

#include "judge/util/parallel.h"

namespace judge {

void CasePrefetcher::Start(size_t index) {
  for (const auto& p : pending_)
    if (p.first == index) return;
  pending_.emplace_back(index, std::async(std::launch::async, [this, index] {
                          LowerThreadPriority(kBesideTimingNice);
                          return prepare_(index);
                        }));
}

Expected<PreparedCase> CasePrefetcher::Take(size_t index, GpuTurns* turns) {
  // Cases prepared ahead but not run (skipped twins) finish first: a future's end is its wait.
  while (!pending_.empty() && pending_.front().first < index) pending_.pop_front();
  if (pending_.empty() || pending_.front().first != index) {
    GpuTurns::Turn turn = GpuTurns::Shared(turns);
    return prepare_(index);
  }
  auto prepared = pending_.front().second.get();
  pending_.pop_front();
  return prepared;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// What one token may send: the service's admission policy, pure so every rule is tested without a
// server. The store reads a token's Usage inside the transaction that inserts (store.h Enqueue), so
// two concurrent requests cannot pass a limit together; these functions only decide.
#include <cstddef>
#include <cstdint>

#include "judge/serve/store.h"
#include "judge/util/expected.h"

namespace judge::serve {

struct Limits {
  int64_t max_in_flight = 4;                    // submissions of one token not yet done
  int64_t max_per_hour = 60;                    // submissions of one token created in the last hour
  size_t max_source_bytes = size_t(256) << 10;  // one source file
  size_t max_body_bytes = size_t(1) << 20;      // one HTTP request body, all parts together
};

// Ok, or an error naming the limit that was reached and when to retry (for a 429 answer).
Status Admit(const Usage& usage, const Limits& limits);
// The Retry-After of a refusal by Admit: a graded submission frees its in-flight slot within
// seconds to minutes; the hourly window slides, so a few minutes free at least one slot of a
// steady sender (the store keeps counts, not the time of each submission).
int RetryAfterSeconds(const Usage& usage, const Limits& limits);

}  // namespace judge::serve

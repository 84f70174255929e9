// SPDX-License-Identifier: MIT
#pragma once

namespace judge {

// The worker's request loop (`judge __worker`): reads frames from `in_fd`, answers on `out_fd`,
// returns the process exit code. See protocol/messages.h for the conversation.
int RunWorker(int in_fd, int out_fd);

}  // namespace judge

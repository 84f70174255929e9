// SPDX-License-Identifier: MIT
#pragma once
// One worker process as the judge talks to it: started (or taken from WorkerAhead), spoken to in
// typed messages (protocol/messages.h) under deadlines, its printed output kept, killed after any
// failure or let go when healthy. It knows nothing of verdicts: it says what happened (a message,
// or how the wait ended), and judge/rules/ decides what that means.
#include <memory>
#include <optional>
#include <string>

#include "judge/protocol/messages.h"
#include "judge/supervise/worker_ahead.h"
#include "judge/supervise/worker_process.h"

namespace judge {

// What waiting for the worker gave: a well-formed message, or the event that ended the wait
// (kTimeout, kExited, kBroken — a malformed message is kBroken too —, kInterrupted, kOutputLimit,
// kMemoryLimit). After anything but a message the worker has been killed.
struct Heard {
  std::optional<Message> message;
  WorkerEvent event;
  bool ok() const { return message.has_value(); }
};

// What a case's workers printed; a case may outlive a worker (--timing-processes, retries).
struct Printed {
  std::string out, err;
  bool truncated = false;
};

class WorkerSession {
 public:
  // `ahead` may be null: workers then start and exit in line.
  WorkerSession(WorkerRecipe recipe, std::shared_ptr<WorkerAhead> ahead, double finish_grace_seconds);
  ~WorkerSession();
  WorkerSession(const WorkerSession&) = delete;
  WorkerSession& operator=(const WorkerSession&) = delete;

  bool running() const { return process_ != nullptr; }
  // Starts a worker with its device open (one started ahead when there is one); the next spare is
  // then prepared. Error: the worker could not be started, or its answer is in `failure`.
  Expected<Heard> Start();
  // A worker's private folder (valid while running).
  const std::string& scratch() const { return scratch_; }
  // Sends `message`; when the worker is gone already, the event that says how.
  std::optional<WorkerEvent> Send(const Message& message);
  // The next message, within `timeout_seconds`.
  Heard Next(double timeout_seconds);
  // Sends `request` and waits for the answer.
  Heard Ask(const Message& request, double timeout_seconds);

  void Kill();    // after any failure: its CUDA context may be poisoned; its output is kept
  void Retire();  // a healthy worker exits (on another thread when started ahead)

  // Marks where the next case's output starts; Take returns everything printed since.
  void MarkOutput();
  Printed TakeOutput();

 private:
  Heard Failed(WorkerEvent event);
  void KeepOutput();

  WorkerRecipe recipe_;
  std::shared_ptr<WorkerAhead> ahead_;
  double finish_grace_seconds_;
  std::unique_ptr<WorkerProcess> process_;
  std::string scratch_;
  Printed printed_;                     // of workers gone since the mark
  size_t out_mark_ = 0, err_mark_ = 0;  // where the mark is in the current worker's capture
};

// A worker that runs only the judge's own code (no submission is loaded, so no sandbox): it opens
// the device, answers `request` when there is one, and exits. The device message, or the answer.
Expected<Message> AskTrustedWorker(const std::vector<std::string>& argv, DeviceKind device,
                                   const std::optional<Message>& request, MessageKind want,
                                   const std::atomic<bool>* interrupted, double timeout_seconds);

}  // namespace judge

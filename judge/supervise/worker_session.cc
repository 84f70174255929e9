// SPDX-License-Identifier: MIT
#include "judge/supervise/worker_session.h"

#include <unistd.h>

#include <chrono>
#include <utility>

#include <spdlog/spdlog.h>

#include "judge/util/fs.h"
#include "judge/util/subprocess.h"

namespace judge {
namespace {

using Clock = std::chrono::steady_clock;
double SecondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

Heard Decoded(WorkerEvent event) {
  Heard h;
  if (event.kind != WorkerEvent::Kind::kFrame) {
    h.event = std::move(event);
    return h;
  }
  auto message = Decode(std::move(event.frame));
  if (!message) {
    h.event = WorkerEvent::Broken(message.error().message);
    return h;
  }
  h.message = std::move(*message);
  h.event = WorkerEvent::Of(WorkerEvent::Kind::kFrame);
  return h;
}

}  // namespace

WorkerSession::WorkerSession(WorkerRecipe recipe, std::shared_ptr<WorkerAhead> ahead, double finish_grace_seconds)
    : recipe_(std::move(recipe)), ahead_(std::move(ahead)), finish_grace_seconds_(finish_grace_seconds) {}

WorkerSession::~WorkerSession() { Retire(); }

Expected<Heard> WorkerSession::Start() {
  auto start = Clock::now();
  Heard heard;
  if (auto spare = ahead_ ? ahead_->Take(recipe_) : std::nullopt) {
    process_ = std::move(spare->process);
    process_->SetInterrupted(recipe_.limits.interrupted);
    scratch_ = spare->scratch;
    heard.message = DeviceMessage{};  // its device answer was read when it was started
    spdlog::debug("took a worker started ahead, its device open ({:.3f} s wait)", SecondsSince(start));
  } else {
    auto scratch = MakeWorkerScratch(recipe_.chown_to_nobody);
    if (!scratch) return MakeError(ErrorCode::kIo, "cannot prepare the worker's folder: " + scratch.error().message);
    auto spawned = WorkerProcess::Spawn(recipe_.Launch(*scratch));
    if (!spawned) {
      RemoveTree(*scratch);
      return MakeError(ErrorCode::kSubprocess, "cannot start a worker: " + spawned.error().message);
    }
    process_ = std::move(*spawned);
    scratch_ = *scratch;
    out_mark_ = err_mark_ = 0;
    heard = Ask(recipe_.InitRequest(scratch_), recipe_.init_seconds);
    if (!heard.ok()) return heard;
    if (KindOf(*heard.message) != MessageKind::kDevice) {
      Kill();  // a fault (or nonsense) instead of the device: this worker is of no use
      return heard;
    }
    spdlog::debug("worker started and opened the device in {:.3f} s", SecondsSince(start));
  }
  out_mark_ = err_mark_ = 0;
  // The next worker (after a crash, or for the next submission) starts while this one works.
  if (ahead_) ahead_->Prepare(recipe_);
  return heard;
}

Heard WorkerSession::Failed(WorkerEvent event) {
  Kill();
  Heard h;
  h.event = std::move(event);
  return h;
}

std::optional<WorkerEvent> WorkerSession::Send(const Message& message) {
  if (process_->Send(Encode(message).header)) return std::nullopt;
  WorkerEvent ev = process_->Next(1.0);  // why it is gone: its exit, usually
  Kill();
  return ev;
}

Heard WorkerSession::Next(double timeout_seconds) {
  Heard h = Decoded(process_->Next(timeout_seconds));
  if (!h.ok()) return Failed(std::move(h.event));
  return h;
}

Heard WorkerSession::Ask(const Message& request, double timeout_seconds) {
  if (auto gone = Send(request)) return Failed(std::move(*gone));
  return Next(timeout_seconds);
}

void WorkerSession::KeepOutput() {
  process_->DrainOutput();
  const std::string& out = process_->captured_stdout().text;
  const std::string& err = process_->captured_stderr().text;
  printed_.out += out.substr(std::min(out_mark_, out.size()));
  printed_.err += err.substr(std::min(err_mark_, err.size()));
  printed_.truncated |= process_->captured_stdout().truncated() || process_->captured_stderr().truncated();
  out_mark_ = err_mark_ = 0;
}

void WorkerSession::Kill() {
  if (!process_) return;
  KeepOutput();
  process_->Kill();
  process_.reset();
  if (!scratch_.empty()) RemoveTree(scratch_);
  scratch_.clear();
}

void WorkerSession::Retire() {
  if (!process_) return;
  KeepOutput();
  if (ahead_) {
    ahead_->Retire(StartedWorker{std::move(process_), scratch_}, finish_grace_seconds_);
    scratch_.clear();
    return;
  }
  auto start = Clock::now();
  process_->Finish(finish_grace_seconds_);
  spdlog::debug("worker exited in {:.3f} s (CUDA context teardown)", SecondsSince(start));
  process_.reset();
  if (!scratch_.empty()) RemoveTree(scratch_);
  scratch_.clear();
}

void WorkerSession::MarkOutput() {
  printed_ = Printed{};
  if (!process_) return;
  out_mark_ = process_->captured_stdout().text.size();
  err_mark_ = process_->captured_stderr().text.size();
}

Printed WorkerSession::TakeOutput() {
  if (process_) {
    KeepOutput();
    out_mark_ = process_->captured_stdout().text.size();
    err_mark_ = process_->captured_stderr().text.size();
  }
  return std::exchange(printed_, Printed{});
}

Expected<Message> AskTrustedWorker(const std::vector<std::string>& argv, DeviceKind device,
                                   const std::optional<Message>& request, MessageKind want,
                                   const std::atomic<bool>* interrupted, double timeout_seconds) {
  WorkerRecipe recipe;
  recipe.argv = argv;
  // The judge's own environment, as for any program it runs: this worker loads no submission.
  for (char** e = environ; *e; ++e) recipe.env.push_back(*e);
  recipe.limits.max_blob_bytes = 1 << 20;
  recipe.limits.interrupted = interrupted;
  recipe.init.device = device;
  recipe.init.sandbox.enabled = false;
  recipe.init_seconds = timeout_seconds;
  WorkerSession session(recipe, nullptr, 2.0);
  auto heard = session.Start();
  if (!heard) return heard.error();
  if (heard->ok() && request) *heard = session.Ask(*request, timeout_seconds);
  if (!heard->ok()) {
    const WorkerEvent& ev = heard->event;
    std::string why = ev.kind == WorkerEvent::Kind::kTimeout ? "no answer in time"
                      : ev.kind == WorkerEvent::Kind::kExited
                          ? "the worker exited (code " + std::to_string(ev.exit_code) +
                                (ev.signal ? ", " + DescribeSignal(ev.signal) : "") + ")"
                          : "the worker failed: " + ev.error;
    return MakeError(ErrorCode::kNoDevice, why);
  }
  if (auto* fault = std::get_if<FaultMessage>(&*heard->message))
    return MakeError(ErrorCode::kNoDevice, (fault->phase == FaultPhase::kInit ? "device: " : "") + fault->message);
  if (KindOf(*heard->message) != want)
    return MakeError(ErrorCode::kInternal,
                     "worker answered \"" + std::string(MessageKindName(KindOf(*heard->message))) + "\"");
  return std::move(*heard->message);
}

}  // namespace judge

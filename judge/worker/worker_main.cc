// SPDX-License-Identifier: MIT
#include "judge/worker/worker_main.h"

#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "judge/device/device.h"
#include "judge/protocol/frame.h"
#include "judge/protocol/messages.h"
#include "judge/sandbox/sandbox.h"
#include "judge/worker/harness.h"
#include "judge/worker/library.h"

namespace judge {
namespace {

constexpr uint64_t kMaxRequestBlob = 0;  // the judge never sends data blobs

class Worker : public CaseChannel {
 public:
  Worker(int in_fd, int out_fd) : in_(in_fd), out_(out_fd) {}

  // Returns false when the worker must exit (its CUDA context may be poisoned).
  bool Handle(const Message& request) {
    return std::visit(
        [this](const auto& m) -> bool {
          using T = std::decay_t<decltype(m)>;
          if constexpr (std::is_same_v<T, InitMessage>)
            return Init(m);
          else if constexpr (std::is_same_v<T, LoadMessage>)
            return Load(m);
          else if constexpr (std::is_same_v<T, CaseRequest>)
            return RunCase(m);
          else if constexpr (std::is_same_v<T, CeilingMessage>)
            return Ceiling();
          else if constexpr (std::is_same_v<T, SendKeptMessage>)
            return SendKept();
          else
            return Fault(FaultPhase::kProtocol, "the judge sent \"" + std::string(MessageKindName(KindOf(Message(m)))) +
                                                    "\", which is no request");
        },
        request);
  }
  bool Fault(FaultPhase phase, const std::string& message, FaultCause cause = FaultCause::kOther) {
    Send(FaultMessage{phase, cause, message});
    return false;
  }

 private:
  void Send(Message m) {
    Frame f = Encode(std::move(m));
    (void)WriteFrame(out_, f.header, f.blob);
  }

  bool Init(const InitMessage& m) {
    policy_ = m.sandbox;
    ApplyEarly(policy_, &protections_);  // before CUDA starts: namespaces, rlimits
    device_ = MakeDevice(m.device);
    device_->SetFlushMode(m.flush);
    auto info = device_->Info();
    if (!info) return Fault(FaultPhase::kInit, info.error().message);
    // Before any submission is loaded into this process: the judge trusts only this figure.
    auto timer = device_->CreateTimer();
    if (!timer) return Fault(FaultPhase::kInit, timer.error().message);
    auto window = MeasureEmptyWindow(*device_, **timer);
    if (!window) return Fault(FaultPhase::kInit, window.error().message);
    info->empty_window_ms = window->event_ms;
    Send(DeviceMessage{*info});
    return true;
  }

  // The sandbox closes before dlopen: the library's static constructors are submission code.
  bool Load(const LoadMessage& m) {
    ApplyLate(policy_, &protections_);
    // Said before dlopen, so the judge knows the layers even if a constructor kills the worker.
    Send(SandboxedMessage{protections_});
    // No library: the judge's trusted calibration worker, confined exactly as a submission's is,
    // so that the sandbox's own cost per call (seccomp on every system call) is in both.
    if (!m.library.empty())
      if (auto st = library_.Open(m.library, m.entry_point); !st) return Fault(FaultPhase::kLoad, st.error().message);
    LoadedMessage loaded;
    ApplyAfterLoad(policy_, &loaded.protections);
    Send(loaded);
    return true;
  }

  bool Ceiling() {
    if (!device_) return Fault(FaultPhase::kProtocol, "ceiling before init");
    auto timer = device_->CreateTimer();
    if (!timer) return Fault(FaultPhase::kSetup, timer.error().message);
    auto window = MeasureEmptyWindow(*device_, **timer);
    if (!window) return Fault(FaultPhase::kSetup, window.error().message);
    auto ceiling = device_->MeasureCeilings(window->event_ms);
    if (!ceiling) return Fault(FaultPhase::kSetup, ceiling.error().message);
    Send(CeilingMeasuredMessage{*ceiling});
    return true;
  }

  bool RunCase(const CaseRequest& request) {
    if (!device_) return Fault(FaultPhase::kProtocol, "case before init");
    if (request.noop && library_.is_open())
      return Fault(FaultPhase::kProtocol, "a no-op calibration asked of a worker that loaded a submission");
    // A case's slots are its own (send_kept comes after its case_done, or never), made before its
    // first call: the judge counted them in the device memory a case needs, and a failure here is
    // the judge's, never the submission's.
    kept_.clear();
    kept_calls_.clear();
    kept_bytes_ = OutputBytesPerCall(request);
    for (int i = 0; i < request.kept_slots; ++i) {
      auto slot = DeviceBuffer::Allocate(*device_, kept_bytes_);
      if (!slot)
        return Fault(FaultPhase::kSetup, "cannot make kept-output slot " + std::to_string(i + 1) + " of " +
                                             std::to_string(request.kept_slots) + ": " + slot.error().message);
      kept_.push_back(std::move(*slot));
    }
    CaseHarness harness(*device_, library_, *this);
    auto result = harness.Run(request);
    if (auto* fault = std::get_if<CaseFault>(&result)) return Fault(fault->phase, fault->message, fault->cause);
    auto& out = std::get<CaseOutput>(result);
    Send(CaseDoneMessage{std::move(out.report), std::move(out.outputs)});
    return true;
  }

  // One slot at a time through host memory: the judge asks after the timed calls.
  bool SendKept() {
    for (size_t slot = 0; slot < kept_calls_.size(); ++slot) {
      std::string outputs(kept_bytes_, '\0');
      // The context is the submission's: GPU work it left may have broken it since case_done.
      if (auto st = device_->CopyToHost(outputs.data(), kept_[slot].get(), kept_bytes_); !st)
        return Fault(FaultPhase::kSolve, "copying a kept call's outputs: " + st.error().message);
      Send(CallOutputsMessage{kept_calls_[slot], std::move(outputs)});
    }
    kept_.clear();
    kept_calls_.clear();
    return true;
  }

  void Progress(const ProgressMessage& progress) override { Send(progress); }

  // The judge's next message, which must be a T about call `call`.
  template <typename T>
  Expected<T> AwaitAbout(int call, const char* what) {
    const std::string about = std::string(what) + " of call " + std::to_string(call);
    auto frame = ReadFrame(in_, kMaxRequestBlob);
    if (!frame) return MakeError(ErrorCode::kProtocol, "waiting for the " + about + ": " + frame.error().message);
    if (!*frame) return MakeError(ErrorCode::kProtocol, "the judge closed the pipe before the " + about);
    auto m = Decode(std::move(**frame));
    if (!m) return m.error();
    auto* t = std::get_if<T>(&*m);
    if (!t || t->call != call) return MakeError(ErrorCode::kProtocol, "expected the " + about);
    return *t;
  }
  Expected<std::vector<uint64_t>> AwaitCall(int call) override {
    auto m = AwaitAbout<CallMessage>(call, "seeds");
    if (!m) return m.error();
    return m->seeds;
  }
  Expected<void*> AwaitFetch(int call) override {
    auto m = AwaitAbout<FetchMessage>(call, "fetch decision");
    if (!m) return m.error();
    if (!m->slot) return nullptr;
    const size_t slot = size_t(*m->slot);
    if (slot > kept_calls_.size() || slot >= kept_.size())
      return MakeError(ErrorCode::kProtocol, "fetch names slot " + std::to_string(slot) + " with " +
                                                 std::to_string(kept_calls_.size()) + " kept of " +
                                                 std::to_string(kept_.size()) + " slots");
    if (slot == kept_calls_.size()) kept_calls_.push_back(call);
    kept_calls_[slot] = call;
    return kept_[slot].get();
  }

  int in_;
  int out_;
  SandboxPolicy policy_;
  SandboxReport protections_;
  std::unique_ptr<Device> device_;
  SubmissionLibrary library_;
  std::vector<DeviceBuffer> kept_;  // the request's kept_slots, each OutputBytesPerCall
  std::vector<int> kept_calls_;     // by slot: the fresh call whose outputs it holds (FetchMessage)
  size_t kept_bytes_ = 0;
};

}  // namespace

int RunWorker(int in_fd, int out_fd) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // stdout is a pipe: keep the submission's lines flowing
  Worker worker(in_fd, out_fd);
  for (;;) {
    auto frame = ReadFrame(in_fd, kMaxRequestBlob);
    if (frame && !*frame) return 0;  // the judge closed the pipe: done
    if (!frame) {  // the judge's fault, said as such: never a silent exit the submission is blamed for
      worker.Fault(FaultPhase::kProtocol, "the judge's request cannot be read: " + frame.error().message);
      return 3;
    }
    auto request = Decode(std::move(**frame));
    if (!request) {
      worker.Fault(FaultPhase::kProtocol, request.error().message);
      return 3;
    }
    bool keep_going = false;
    try {
      keep_going = worker.Handle(*request);
    } catch (const std::exception& e) {
      // Only submission code can throw past the handlers above.
      worker.Fault(FaultPhase::kSolve, std::string("an uncaught C++ exception escaped solve(): ") + e.what());
    }
    // After any fault the process ends: a CUDA error may be sticky, and a fresh worker is cheap.
    if (!keep_going) return 3;
  }
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/worker/worker_main.h"

#include <cstdio>
#include <memory>

#include "judge/device/device.h"
#include "judge/protocol/frame.h"
#include "judge/protocol/messages.h"
#include "judge/sandbox/sandbox.h"
#include "judge/worker/harness.h"
#include "judge/worker/library.h"

namespace judge {
namespace {

constexpr uint64_t kMaxRequestBlob = 0;  // the judge never sends data blobs

class Worker {
 public:
  explicit Worker(int out_fd) : out_(out_fd) {}

  // Returns false when the worker must exit (its CUDA context may be poisoned).
  bool Handle(const Frame& req) {
    const std::string type = req.header.value("type", "");
    if (type == "init") {
      policy_ = SandboxPolicyFromJson(req.header.value("sandbox", Json::object()));
      ApplyEarly(policy_, &protections_);  // before CUDA starts: namespaces, rlimits
      if (!Init(req.header.value("device", "cuda"))) return false;
      device_->SetFlushMode(req.header.value("flush", "read") == "write" ? FlushMode::kWrite : FlushMode::kRead);
      return true;
    }
    if (type == "load") return Load(req.header.value("library", ""), req.header.value("entry_point", "solve"));
    if (type == "case") return RunCase(req.header);
    if (type == "ceiling") return Ceiling();
    Send({{"type", "fault"}, {"phase", "protocol"}, {"message", "unknown request type \"" + type + "\""}});
    return false;
  }

 private:
  void Send(const Json& j, const std::string& blob = "") { (void)WriteFrame(out_, j, blob); }
  bool Fault(const std::string& phase, const std::string& message) {
    Send({{"type", "fault"}, {"phase", phase}, {"message", message}});
    return false;
  }

  bool Init(const std::string& kind) {
    auto parsed = ParseDeviceKind(kind);
    if (!parsed) return Fault("init", "unknown device kind \"" + kind + "\"");
    device_ = MakeDevice(*parsed);
    auto info = device_->Info();
    if (!info) return Fault("init", info.error().message);
    // Before any submission is loaded into this process: the judge trusts only this figure.
    auto timer = device_->CreateTimer();
    if (!timer) return Fault("init", timer.error().message);
    auto window = MeasureEmptyWindow(*device_, **timer);
    if (!window) return Fault("init", window.error().message);
    info->empty_window_ms = window->event_ms;
    Json j = DeviceInfoToJson(*info);
    j["type"] = "device";
    Send(j);
    return true;
  }

  // The sandbox closes before dlopen: the library's static constructors are submission code.
  bool Load(const std::string& path, const std::string& entry) {
    ApplyLate(policy_, &protections_);
    // Said before dlopen, so the judge knows the layers even if a constructor kills the worker.
    Send({{"type", "sandboxed"}, {"protections", SandboxReportToJson(protections_)}});
    if (auto st = library_.Open(path, entry); !st) return Fault("load", st.error().message);
    Send({{"type", "loaded"}});
    return true;
  }

  bool Ceiling() {
    if (!device_) return Fault("setup", "ceiling before init");
    auto timer = device_->CreateTimer();
    if (!timer) return Fault("setup", timer.error().message);
    auto window = MeasureEmptyWindow(*device_, **timer);
    if (!window) return Fault("setup", window.error().message);
    auto ceiling = device_->MeasureReadCeiling(window->event_ms);
    if (!ceiling) return Fault("setup", ceiling.error().message);
    Send({{"type", "ceiling"}, {"gbps", ceiling->gbps}, {"shape", ceiling->shape}});
    return true;
  }

  bool RunCase(const Json& header) {
    if (!device_) return Fault("setup", "case before init");
    Expected<CaseRequest> request = MakeError(ErrorCode::kProtocol, "unparsed");
    try {
      request = CaseRequestFromJson(header);
    } catch (const std::exception& e) {
      return Fault("setup", std::string("malformed case request: ") + e.what());
    }
    if (!request) return Fault("setup", request.error().message);
    CaseHarness harness(*device_, library_, [this](const std::string& stage, int calls) {
      Send({{"type", "progress"}, {"stage", stage}, {"calls", calls}});
    });
    auto result = harness.Run(*request);
    if (auto* fault = std::get_if<CaseFault>(&result))
      return Fault(fault->phase == FaultPhase::kSetup ? "setup" : "solve", fault->message);
    const auto& out = std::get<CaseOutput>(result);
    Json done = CaseReportToJson(out.report);
    done["type"] = "case_done";
    Send(done, out.outputs);
    return true;
  }

  int out_;
  SandboxPolicy policy_;
  SandboxReport protections_;
  std::unique_ptr<Device> device_;
  SubmissionLibrary library_;
};

}  // namespace

int RunWorker(int in_fd, int out_fd) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // stdout is a pipe: keep the submission's lines flowing
  Worker worker(out_fd);
  for (;;) {
    auto frame = ReadFrame(in_fd, kMaxRequestBlob);
    if (!frame) return 0;  // the judge closed the pipe: done
    bool keep_going = false;
    try {
      keep_going = worker.Handle(*frame);
    } catch (const std::exception& e) {
      // Only submission code can throw past the handlers above.
      (void)WriteFrame(out_fd, {{"type", "fault"}, {"phase", "solve"},
                                {"message", std::string("an uncaught C++ exception escaped solve(): ") + e.what()}});
    }
    // After any fault the process ends: a CUDA error may be sticky, and a fresh worker is cheap.
    if (!keep_going) return 3;
  }
}

}  // namespace judge

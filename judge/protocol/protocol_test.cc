// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <set>

#include "judge/protocol/frame.h"
#include "judge/protocol/messages.h"

namespace judge {
namespace {

TEST(Frame, RoundTripsInPieces) {
  std::string bytes = EncodeFrame({{"type", "case_done"}, {"x", 1}}, std::string("\x00\x01\x02", 3)) +
                      EncodeFrame({{"type", "progress"}});
  FrameDecoder d(1024);
  for (char c : bytes) ASSERT_TRUE(d.Feed(&c, 1).ok());  // one byte at a time
  ASSERT_TRUE(d.HasFrame());
  Frame a = d.Pop();
  EXPECT_EQ(a.header["type"], "case_done");
  EXPECT_EQ(a.header["v"], kProtocolVersion);
  EXPECT_EQ(a.blob, std::string("\x00\x01\x02", 3));
  ASSERT_TRUE(d.HasFrame());
  EXPECT_EQ(d.Pop().header["type"], "progress");
  EXPECT_FALSE(d.HasFrame());
}

TEST(Frame, UntrustedLengthsAreBounded) {
  std::string big = EncodeFrame({{"type", "x"}}, std::string(2000, 'a'));
  FrameDecoder d(1000);
  EXPECT_FALSE(d.Feed(big.data(), big.size()).ok());
  EXPECT_FALSE(d.Feed("x", 1).ok());  // stays broken
  std::string huge_header("\xff\xff\xff\x7f\0\0\0\0\0\0\0\0", 12);
  FrameDecoder d2(1000);
  EXPECT_FALSE(d2.Feed(huge_header.data(), huge_header.size()).ok());
}

TEST(Frame, RejectsForgedHeaders) {
  auto frame_of = [](const std::string& text) {
    std::string out;
    for (int i = 0; i < 4; ++i) out.push_back(char((text.size() >> (8 * i)) & 0xff));
    out += std::string(8, '\0') + text;
    return out;
  };
  for (std::string bad : {"not json", "[1,2]", "{\"type\": \"x\"}", "{\"v\": 99, \"type\": \"x\"}", "{\"v\": 1}"}) {
    FrameDecoder d(1000);
    std::string f = frame_of(bad);
    EXPECT_FALSE(d.Feed(f.data(), f.size()).ok()) << bad;
  }
}

// Found by fuzzing: a submission throwing an exception whose message is not UTF-8 killed the
// worker while it reported the exception (SIGABRT), and the message was lost.
TEST(Frame, TextThatIsNotUtf8IsCarriedAsReplacementCharacters) {
  Frame f = Encode(FaultMessage{FaultPhase::kSolve, FaultCause::kOther, "uncaught: caf\xe9"});
  std::string bytes = EncodeFrame(f.header, f.blob);
  FrameDecoder decoder(0);
  ASSERT_TRUE(decoder.Feed(bytes.data(), bytes.size()).ok());
  auto back = Decode(decoder.Pop());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(std::get<FaultMessage>(*back).message, "uncaught: caf\xEF\xBF\xBD");
}

CaseRequest SampleRequest() {
  CaseRequest r;
  r.name = "c";
  ParamArg in;
  in.buffer = {"input", true, DType::kFloat32, 3, {InputSpec{std::vector<double>{1, 2, 3}, std::nullopt}}};
  ParamArg out;
  out.buffer = {"output", false, DType::kFloat32, 2, {}};
  ParamArg n;
  n.is_buffer = false;
  n.scalar = 3;
  r.params = {in, out, n};
  r.timing = TimingPolicy{2, 3, 4, 0.5, 0.01};
  r.guard_nan = false;
  r.diagnostic = true;
  return r;
}

template <class T>
T RoundTrip(const Message& m) {
  Frame f = Encode(m);
  // Through the real framing too: what the pipe carries.
  std::string bytes = EncodeFrame(f.header, f.blob);
  FrameDecoder decoder(1 << 20);
  EXPECT_TRUE(decoder.Feed(bytes.data(), bytes.size()).ok());
  auto back = Decode(decoder.Pop());
  EXPECT_TRUE(back.ok()) << (back.ok() ? "" : back.error().message);
  EXPECT_EQ(KindOf(*back), KindOf(m));
  return std::get<T>(*back);
}

TEST(Messages, CaseRequestRoundTrips) {
  CaseRequest back = RoundTrip<CaseRequest>(SampleRequest());
  ASSERT_EQ(back.params.size(), 3u);
  EXPECT_EQ(*back.params[0].buffer.variants.at(0).values, (std::vector<double>{1, 2, 3}));
  EXPECT_FALSE(back.params[1].buffer.is_input);
  EXPECT_EQ(back.params[2].scalar, 3);
  EXPECT_EQ(back.timing.max_samples, 4);
  EXPECT_FALSE(back.guard_nan);
  EXPECT_TRUE(back.diagnostic);
}

TEST(Messages, OutputBytesPerCallCountsOnlyOutputs) {
  EXPECT_EQ(OutputBytesPerCall(SampleRequest()), 2u * sizeof(float));
}

TEST(Messages, EveryKindRoundTripsWithItsFields) {
  InitMessage init;
  init.device = DeviceKind::kHost;
  init.flush = FlushMode::kWrite;
  init.sandbox.scratch_dir = "/tmp/w";
  InitMessage i = RoundTrip<InitMessage>(init);
  EXPECT_EQ(i.device, DeviceKind::kHost);
  EXPECT_EQ(i.flush, FlushMode::kWrite);
  EXPECT_EQ(i.sandbox.scratch_dir, "/tmp/w");
  DeviceInfo info;
  info.kind = DeviceKind::kCuda;
  info.name = "GPU";
  info.empty_window_ms = 0.00125;
  DeviceMessage d = RoundTrip<DeviceMessage>(DeviceMessage{info});
  EXPECT_EQ(d.info.name, "GPU");
  EXPECT_DOUBLE_EQ(d.info.empty_window_ms, 0.00125);
  LoadMessage l = RoundTrip<LoadMessage>(LoadMessage{"/w/submission.so", "solve"});
  EXPECT_EQ(l.library, "/w/submission.so");
  SandboxedMessage sb = RoundTrip<SandboxedMessage>(SandboxedMessage{{Protection{"seccomp", true, "filter"}}});
  ASSERT_EQ(sb.protections.size(), 1u);
  EXPECT_EQ(sb.protections[0].name, "seccomp");
  RoundTrip<LoadedMessage>(LoadedMessage{});
  ProgressMessage pr = RoundTrip<ProgressMessage>(ProgressMessage{ProgressStage::kReady, 0});
  EXPECT_EQ(pr.stage, ProgressStage::kReady);
  RoundTrip<CeilingMessage>(CeilingMessage{});
  CeilingMeasuredMessage c = RoundTrip<CeilingMeasuredMessage>(CeilingMeasuredMessage{ReadCeiling{4500.5, "4x256"}});
  EXPECT_DOUBLE_EQ(c.ceiling.gbps, 4500.5);
  FaultMessage f = RoundTrip<FaultMessage>(FaultMessage{FaultPhase::kSolve, FaultCause::kDeviceMemory, "oom"});
  EXPECT_EQ(f.phase, FaultPhase::kSolve);
  EXPECT_EQ(f.cause, FaultCause::kDeviceMemory);
  EXPECT_EQ(f.message, "oom");
}

TEST(Messages, KindsAreTheVariantsAlternativesInOrderAndHaveDistinctNames) {
  std::set<std::string> names;
  for (MessageKind k : kAllMessageKinds) names.insert(std::string(MessageKindName(k)));
  EXPECT_EQ(names.size(), std::size(kAllMessageKinds));
  EXPECT_EQ(std::variant_size_v<Message>, std::size(kAllMessageKinds));
  EXPECT_EQ(KindOf(FaultMessage{}), MessageKind::kFault);
  EXPECT_EQ(KindOf(CaseRequest{}), MessageKind::kCase);
}

// The exchange documented at the top of messages.h names every message kind.
TEST(Messages, SpecCommentNamesEveryKind) {
  std::ifstream in(std::string(JUDGE_SOURCE_DIR) + "/judge/protocol/messages.h");
  std::string line, spec;
  while (std::getline(in, line) && line.rfind("#include", 0) != 0)
    if (line.rfind("//", 0) == 0) spec += line + "\n";
  for (MessageKind k : kAllMessageKinds) {
    EXPECT_NE(spec.find(" " + std::string(MessageKindName(k))), std::string::npos) << MessageKindName(k);
  }
}

TEST(Messages, CaseDoneFromTheWorkerIsValidated) {
  CaseReport r;
  r.calls = {CallRecord{CallKind::kCheck, 0, 0.5, 0.6}, CallRecord{CallKind::kTimed, 1, 0.4, 0.5}};
  r.output_calls = {0, 1};
  r.output_bytes_per_call = 4;
  r.violation = Violation{"input_modified", 1, "changed"};
  CaseDoneMessage done{r, std::string(8, 'x')};
  CaseDoneMessage back = RoundTrip<CaseDoneMessage>(done);
  EXPECT_EQ(back.report.calls[1].kind, CallKind::kTimed);
  EXPECT_EQ(back.report.violation->kind, "input_modified");
  EXPECT_EQ(back.outputs.size(), 8u);
  struct Forgery {
    const char* what;
    std::function<void(Frame&)> forge;
  };
  for (const Forgery& f : std::vector<Forgery>{
           {"an output index past the calls",
            [](Frame& fr) {
              fr.header["output_calls"] = {0, 7};
            }},
           {"a time that is not a number", [](Frame& fr) { fr.header["calls"][0]["event_ms"] = "fast"; }},
           {"a negative time", [](Frame& fr) { fr.header["calls"][0]["event_ms"] = -1; }},
           {"an unknown call kind", [](Frame& fr) { fr.header["calls"][0]["kind"] = "free"; }},
           {"fewer output bytes than the header says", [](Frame& fr) { fr.blob.resize(7); }},
       }) {
    Frame fr = Encode(done);
    f.forge(fr);
    EXPECT_FALSE(Decode(fr).ok()) << f.what;
  }
}

TEST(Messages, UnknownTypesPhasesAndCausesAreRejected) {
  Frame f = Encode(FaultMessage{FaultPhase::kSolve, FaultCause::kOther, "x"});
  f.header["phase"] = "lunch";
  EXPECT_FALSE(Decode(f).ok());
  f = Encode(FaultMessage{FaultPhase::kSolve, FaultCause::kOther, "x"});
  f.header["cause"] = "cosmic_ray";
  EXPECT_FALSE(Decode(f).ok());
  f.header["type"] = "case_don";
  auto bad = Decode(f);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("case_don"), std::string::npos);
  f = Encode(ProgressMessage{ProgressStage::kCall, 1});
  f.header["calls"] = -3;
  EXPECT_FALSE(Decode(f).ok());
}

}  // namespace
}  // namespace judge

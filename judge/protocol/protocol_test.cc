// SPDX-License-Identifier: MIT
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

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

// Found by fuzzing: over 1 MiB of literal testcase values made a correct submission RE ("exited
// with code 0 before the case started"): the worker could not read the request. Testcases hold
// kMaxLiteralValues at most, and the largest request they can make fits one header.
TEST(Frame, TheLargestCaseRequestATestcaseCanMakeFitsOneHeader) {
  CaseRequest r;
  r.name = std::string(kMaxCaseNameLength, 'n') + "_unpredictable_size";
  r.timing = TimingPolicy{1000, 100000, 100000, 86400, 1};
  const size_t inputs = 5;  // six parameters at most, one of them an output
  for (size_t i = 0; i < inputs; ++i) {
    ParamArg in;
    // The longest a double prints: 24 characters.
    std::vector<double> values(kMaxLiteralValues / inputs + (i == 0 ? kMaxLiteralValues % inputs : 0),
                               -2.2250738585072014e-308);
    in.buffer = {std::string(64, 'b') + std::to_string(i), Role::kInput, false, DType::kFloat32, int64_t(values.size()),
                 {InputSpec{values, std::nullopt}}};
    r.params.push_back(in);
  }
  ParamArg out;
  out.buffer = {std::string(64, 'o'), Role::kOutput, false, DType::kFloat32, 1 << 30, {}};
  r.params.push_back(out);
  Frame f = Encode(r);
  std::string bytes = EncodeFrame(f.header, f.blob);
  uint64_t header = 0;
  for (int i = 0; i < 4; ++i) header |= uint64_t(uint8_t(bytes[size_t(i)])) << (8 * i);
  EXPECT_LE(header, kMaxHeaderBytes);
  EXPECT_GT(header, kMaxHeaderBytes / 2) << "the bound is not loose either";
}

TEST(Frame, AHeaderOverTheLimitIsTheWritersErrorAndNeverSent) {
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_NONBLOCK), 0);
  Status st = WriteFrame(fds[1], {{"type", "case"}, {"values", std::string(kMaxHeaderBytes, 'x')}});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::kInternal);
  EXPECT_NE(st.error().message.find("over the protocol's limit of 1048576 (kMaxHeaderBytes)"), std::string::npos)
      << st.error().message;
  char c;
  EXPECT_EQ(::read(fds[0], &c, 1), -1) << "nothing was written";
  // A reader tells a clean end of stream from a frame it cannot read.
  std::string huge("\xff\xff\xff\x7f\0\0\0\0\0\0\0\0", 12);
  ASSERT_EQ(::write(fds[1], huge.data(), huge.size()), ssize_t(huge.size()));
  ::close(fds[1]);
  ::fcntl(fds[0], F_SETFL, 0);
  auto bad = ReadFrame(fds[0], 0);
  EXPECT_FALSE(bad.ok());
  auto end = ReadFrame(fds[0], 0);
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
  ::close(fds[0]);
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
  in.buffer = {
      "input", Role::kInput, true, DType::kFloat32, 3, {InputSpec{std::vector<double>{1, 2, 3}, std::nullopt}}};
  ParamArg out;
  out.buffer = {"output", Role::kOutput, false, DType::kFloat32, 2, {}};
  ParamArg data;
  data.buffer = {"data", Role::kInOut, false, DType::kInt32, 1, {InputSpec{std::vector<double>{7}, std::nullopt}}};
  ParamArg alpha;
  alpha.is_buffer = false;
  alpha.is_real = true;
  alpha.real = 0.25f;
  ParamArg n;
  n.is_buffer = false;
  n.scalar = 3;
  r.params = {in, out, data, alpha, n};
  r.timing = TimingPolicy{2, 3, 4, 0.5, 0.01};
  r.guard_nan = false;
  r.diagnostic = true;
  r.profile = true;
  r.kept_slots = 6;
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
  ASSERT_EQ(back.params.size(), 5u);
  EXPECT_EQ(*back.params[0].buffer.variants.at(0).values, (std::vector<double>{1, 2, 3}));
  EXPECT_TRUE(back.params[0].buffer.writable);
  EXPECT_EQ(back.params[1].buffer.role, Role::kOutput);
  EXPECT_EQ(back.params[2].buffer.role, Role::kInOut);
  EXPECT_TRUE(back.params[2].buffer.Restored());
  EXPECT_TRUE(back.params[3].is_real);
  EXPECT_FLOAT_EQ(back.params[3].real, 0.25f);
  EXPECT_EQ(back.params[4].scalar, 3);
  EXPECT_EQ(back.timing.max_samples, 4);
  EXPECT_FALSE(back.guard_nan);
  EXPECT_TRUE(back.diagnostic);
  EXPECT_TRUE(back.profile);
  EXPECT_EQ(back.kept_slots, 6);
  EXPECT_FALSE(RoundTrip<CaseRequest>(CaseRequest{}).profile);
  EXPECT_EQ(RoundTrip<CaseRequest>(CaseRequest{}).kept_slots, 0);
}

TEST(Messages, ACaseRequestAskingForTooManyKeptSlotsIsMalformed) {
  for (int slots : {-1, kMaxKeptSlots + 1}) {
    Frame f = Encode(SampleRequest());
    f.header["kept_slots"] = slots;
    auto back = Decode(std::move(f));
    ASSERT_FALSE(back.ok()) << slots;
    EXPECT_NE(back.error().message.find("kept_slots"), std::string::npos) << back.error().message;
  }
}

TEST(Messages, OutputBytesPerCallCountsEveryCheckedBuffer) {
  EXPECT_EQ(OutputBytesPerCall(SampleRequest()), 2u * sizeof(float) + sizeof(int32_t));  // output and inout
  EXPECT_EQ(InputBytesPerCall(SampleRequest()), 3 * sizeof(float) + sizeof(int32_t));    // input and inout
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
  LoadedMessage loaded = RoundTrip<LoadedMessage>(LoadedMessage{{Protection{"no_new_code", true, "after load"}}});
  ASSERT_EQ(loaded.protections.size(), 1u);
  EXPECT_EQ(loaded.protections[0].name, "no_new_code");
  ProgressMessage pr = RoundTrip<ProgressMessage>(ProgressMessage{ProgressStage::kReady, 0, {}});
  EXPECT_EQ(pr.stage, ProgressStage::kReady);
  pr = RoundTrip<ProgressMessage>(ProgressMessage{ProgressStage::kAwaitCall, 7, {}});
  EXPECT_EQ(pr.stage, ProgressStage::kAwaitCall);
  EXPECT_EQ(RoundTrip<ProgressMessage>(ProgressMessage{ProgressStage::kSampled, 40, {}}).stage,
            ProgressStage::kSampled);
  EXPECT_EQ(pr.calls, 7);
  pr = RoundTrip<ProgressMessage>(ProgressMessage{ProgressStage::kCall, 8, std::string("\x01\x02\x03\x04", 4)});
  EXPECT_EQ(pr.outputs, std::string("\x01\x02\x03\x04", 4));  // a fresh call's outputs, in the blob
  CallMessage call = RoundTrip<CallMessage>(CallMessage{7, {0xFFFFFFFFFFFFFFFFull, 3}});
  EXPECT_EQ(call.call, 7);
  EXPECT_EQ(call.seeds, (std::vector<uint64_t>{0xFFFFFFFFFFFFFFFFull, 3}));  // all 64 bits survive JSON
  RoundTrip<CeilingMessage>(CeilingMessage{});
  CeilingMeasuredMessage c =
      RoundTrip<CeilingMeasuredMessage>(CeilingMeasuredMessage{Ceilings{4500.5, 3900.25, 61000, "4x256"}});
  EXPECT_DOUBLE_EQ(c.ceiling.read_gbps, 4500.5);
  EXPECT_DOUBLE_EQ(c.ceiling.copy_gbps, 3900.25);
  EXPECT_DOUBLE_EQ(c.ceiling.fp32_gflops, 61000);
  pr = RoundTrip<ProgressMessage>(ProgressMessage{ProgressStage::kCall, 9, {}, 0xFEDCBA9876543210ull});
  EXPECT_EQ(pr.digest, 0xFEDCBA9876543210ull);  // a large fresh call's digest, all 64 bits
  FetchMessage fetch = RoundTrip<FetchMessage>(FetchMessage{5, 3});
  EXPECT_EQ(fetch.call, 5);
  EXPECT_EQ(fetch.slot, 3);
  EXPECT_FALSE(RoundTrip<FetchMessage>(FetchMessage{6, std::nullopt}).slot.has_value());  // not kept
  RoundTrip<SendKeptMessage>(SendKeptMessage{});
  CallOutputsMessage outs = RoundTrip<CallOutputsMessage>(CallOutputsMessage{5, std::string(100000, 'x')});
  EXPECT_EQ(outs.outputs.size(), 100000u);
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
  f = Encode(ProgressMessage{ProgressStage::kCall, 1, {}});
  f.header["calls"] = -3;
  EXPECT_FALSE(Decode(f).ok());
  f = Encode(ProgressMessage{ProgressStage::kCall, 1, {}});
  f.header["stage"] = "nap";
  EXPECT_FALSE(Decode(f).ok());
  f = Encode(ProgressMessage{ProgressStage::kAwaitCall, 1, {}});
  f.blob = "xxxx";  // outputs belong to a finished call only
  EXPECT_FALSE(Decode(f).ok());
  f = Encode(CallMessage{-1, {1}});
  EXPECT_FALSE(Decode(f).ok());
  f = Encode(FetchMessage{2, 0});
  f.header["slot"] = -1;
  EXPECT_FALSE(Decode(f).ok());
}

}  // namespace
}  // namespace judge

// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

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

TEST(Messages, CaseRequestRoundTrips) {
  CaseRequest r;
  r.name = "c";
  ParamArg in;
  in.buffer = {"input", true, DType::kFloat32, 3, {InputSpec{std::vector<double>{1, 2, 3}, std::nullopt}}};
  ParamArg out;
  out.buffer = {"output", false, DType::kFloat32, 1, {}};
  ParamArg n;
  n.is_buffer = false;
  n.scalar = 3;
  r.params = {in, out, n};
  r.timing = TimingPolicy{2, 3, 4, 0.5, 0.01};
  r.guard_nan = false;
  r.diagnostic = true;
  auto back = CaseRequestFromJson(CaseRequestToJson(r));
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->params.size(), 3u);
  EXPECT_EQ(*back->params[0].buffer.variants.at(0).values, (std::vector<double>{1, 2, 3}));
  EXPECT_FALSE(back->params[1].buffer.is_input);
  EXPECT_EQ(back->params[2].scalar, 3);
  EXPECT_EQ(back->timing.max_samples, 4);
  EXPECT_FALSE(back->guard_nan);
  EXPECT_TRUE(back->diagnostic);
}

TEST(Messages, CaseReportIsValidated) {
  CaseReport r;
  r.calls = {CallRecord{CallKind::kCheck, 0, 0.5, 0.6}, CallRecord{CallKind::kTimed, 1, 0.4, 0.5}};
  r.output_calls = {0, 1};
  r.output_bytes_per_call = 4;
  r.violation = Violation{"input_modified", 1, "changed"};
  auto back = CaseReportFromJson(CaseReportToJson(r));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->calls[1].kind, CallKind::kTimed);
  EXPECT_EQ(back->violation->kind, "input_modified");
  Json bad = CaseReportToJson(r);
  bad["output_calls"] = {0, 7};  // a forged index
  EXPECT_FALSE(CaseReportFromJson(bad).ok());
  bad = CaseReportToJson(r);
  bad["calls"][0]["event_ms"] = "fast";
  EXPECT_FALSE(CaseReportFromJson(bad).ok());
}

}  // namespace
}  // namespace judge

// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "judge/profile/profile.h"
#include "judge/report/markup.h"
#include "judge/report/reporter.h"
#include "judge/util/fs.h"
#include "judge/util/utf8.h"

namespace judge {
namespace {

RunReport Sample() {
  RunReport r;
  r.started_at = "2026-11-30T00:00:00Z";
  r.submission_path = "submissions/01_atomic.cu";
  r.submission_sha256 = std::string(64, 'a');
  r.problem = "reduction";
  DeviceInfo d;
  d.kind = DeviceKind::kCuda;
  d.name = "NVIDIA H200";
  d.cc_major = 9;
  r.device = d;
  r.build.attempted = r.build.ok = true;
  r.build.compiler = "nvcc 13.0";
  r.build.target = "sm_90";
  CaseResult ok;
  ok.name = "perf_4m";
  ok.kind = CaseKind::kPerformance;
  ok.scalars = {{"N", 4194304}};
  ok.verdict = Verdict::kAccepted;
  ok.event = Summarize({0.0196, 0.0197, 0.0195});
  ok.gbps = 856;
  CheckResult pass;
  pass.passed = true;
  pass.tolerance_used = 0.12;
  ok.check = pass;
  CaseResult wa = ok;
  wa.name = "lc8_uniform_15m";
  wa.kind = CaseKind::kFunctional;
  wa.verdict = Verdict::kWrongAnswer;
  wa.detail = "output[0] = 7.49e9, expected 7.5e9";
  CheckResult nan;
  nan.got = std::nan("");
  nan.tolerance_used = INFINITY;
  wa.check = nan;
  r.cases = {ok, wa};
  r.verdict = Verdict::kWrongAnswer;
  r.exit_code = ExitCode::kRejected;
  return r;
}

TEST(JsonReport, CarriesSchemaAndEveryCase) {
  Json j = ReportToJson(Sample());
  EXPECT_EQ(j["schema"], "gpu-judge.report");
  EXPECT_EQ(j["schema_version"], kReportSchemaVersion);
  EXPECT_EQ(j["judge_version"], kJudgeVersion);
  EXPECT_EQ(j["verdict"], "WA");
  EXPECT_EQ(j["verdict_code"], 1);
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_EQ(j["device"]["name"], "NVIDIA H200");
  EXPECT_EQ(j["submission"]["sha256"], std::string(64, 'a'));
  ASSERT_EQ(j["cases"].size(), 2u);
  EXPECT_NEAR(j["cases"][0]["timing"]["device"]["median_ms"].get<double>(), 0.0196, 1e-12);
  EXPECT_EQ(j["cases"][0]["timing"]["device"]["samples"], 3);
  EXPECT_EQ(j["summary"]["by_verdict"]["WA"], 1);
  // NaN has no JSON spelling: it must come out as null, and the document must stay parseable.
  EXPECT_TRUE(j["cases"][1]["check"]["got"].is_null());
  EXPECT_NO_THROW(Json::parse(j.dump()));
}

// --profile: a case's diagnosis (here from the H200 recording of reduction 03) in every format that
// shows it, and read back from the JSON.
TEST(ProfileReport, EveryFormatShowsTheDiagnosisAndJsonReadsItBack) {
  RunReport r = Sample();
  auto csv = ReadFile(std::string(JUDGE_SOURCE_DIR) + "/judge/profile/testdata/h200/reduction-03_interleaved.csv");
  ASSERT_TRUE(csv.ok());
  profile::CaseProfile p =
      profile::ProfileFromNcu(*csv, profile::SolveFacts{0.0325}, profile::GpuFacts{4627, 63900, 132},
                              profile::WorkFacts{4.0 * 4194304 + 4, 4194304, 1});
  p.case_name = "perf_4m";
  r.profiles = {p};
  std::ostringstream text, html;
  MakeReporter("text")->Write(r, text);
  EXPECT_NE(text.str().find("[bottleneck] same_address_atomics"), std::string::npos) << text.str();
  MakeReporter("html")->Write(r, html);
  EXPECT_NE(html.str().find("class=\"chart roofline\""), std::string::npos);
  EXPECT_NE(html.str().find("bank_conflicts"), std::string::npos);
  EXPECT_NE(html.str().find("not on the chart"), std::string::npos) << "the recording has no FP32 counts";
  auto back = ReportFromJson(ReportToJson(r));
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->profiles.size(), 1u);
  EXPECT_EQ(profile::ProfileToJson(back->profiles[0]), profile::ProfileToJson(p));
  EXPECT_EQ(ReportToJson(*back)["profiles"], ReportToJson(r)["profiles"]);
}

TEST(Markup, RooflinePlacesADotUnderTheRoof) {
  std::string svg = RenderRoofline({"roof", 4627, 63900, {{"1 k<float>", 0.25, 1000}, {"2 integer", 0, 0}}});
  EXPECT_NE(svg.find("<polyline class=\"reference\""), std::string::npos);
  EXPECT_NE(svg.find("<title>1 k&lt;float&gt;</title>"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("2 integer"), std::string::npos) << "no dot without flops";
  EXPECT_NE(svg.find("63900 GFLOP/s"), std::string::npos);
}

TEST(Markup, EscapeXmlLeavesNothingXmlForbids) {
  EXPECT_EQ(EscapeXml("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  EXPECT_EQ(EscapeXml("bell\x07 nul"), "bell? nul");
  EXPECT_EQ(EscapeXml("x\xEF\xBF\xBEy\xEF\xBF\xBFz"), "x?y?z");  // U+FFFE, U+FFFF
  EXPECT_EQ(EscapeXml("\xEF\xBF\xBD \xEF\xBF\xBC \xE2\x82\xAC"), "\xEF\xBF\xBD \xEF\xBF\xBC \xE2\x82\xAC");  // kept
}

TEST(TextReport, TableAndSummary) {
  std::ostringstream out;
  TextReporter().Write(Sample(), out);
  std::string s = out.str();
  EXPECT_NE(s.find("NVIDIA H200 (sm_90"), std::string::npos) << s;
  EXPECT_NE(s.find("perf_4m"), std::string::npos);
  EXPECT_NE(s.find("19.60 us"), std::string::npos) << s;
  EXPECT_NE(s.find("856"), std::string::npos);
  EXPECT_NE(s.find("NaN/Inf"), std::string::npos);
  EXPECT_NE(s.find("lc8_uniform_15m: WA (wrong answer) - output[0]"), std::string::npos) << s;
  EXPECT_NE(s.find("result: WA (wrong answer), 1/2 cases accepted"), std::string::npos) << s;
}

TEST(TextReport, CompileErrorShowsTheDiagnostics) {
  RunReport r = Sample();
  r.build.ok = false;
  r.build.log = "a.cu(3): error: expected a \";\"\n";
  std::ostringstream out;
  TextReporter().Write(r, out);
  EXPECT_NE(out.str().find("a.cu(3): error"), std::string::npos);
}

TEST(TextReport, NamesTheLayersOfBothSandboxes) {
  RunReport r = Sample();
  r.protections = {{"seccomp", true, "kills the worker on exec"}};
  r.build.sandbox = {
      {"rlimits", true, "CPU 180 s"}, {"network_namespace", false, "unshare: EPERM"}, {"landlock", true, "ABI 7"}};
  std::ostringstream out;
  TextReporter().Write(r, out);
  EXPECT_NE(out.str().find("sandbox: seccomp\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("build sandbox: rlimits network_namespace (OFF) landlock\n"), std::string::npos)
      << out.str();
}

TEST(Multiplex, WritesEveryFormat) {
  std::ostringstream a, b;
  ReporterMultiplex m;
  m.Add(MakeReporter("text"), &a);
  m.Add(MakeReporter("json"), &b);
  m.Write(Sample());
  EXPECT_NE(a.str().find("result:"), std::string::npos);
  EXPECT_EQ(Json::parse(b.str())["verdict"], "WA");
  EXPECT_EQ(MakeReporter("yaml"), nullptr);
}

TEST(JunitReport, ValidatesAgainstTheSchemaAndCountsFailures) {
  RunReport r = Sample();
  CaseResult crash = r.cases[0];
  crash.name = "crash <&> \"quoted\"";
  crash.verdict = Verdict::kRuntimeError;
  crash.detail = "killed by SIGSEGV & friends <here>";
  CaseResult skipped = r.cases[0];
  skipped.name = "later";
  skipped.verdict = Verdict::kNotRun;
  r.cases.push_back(crash);
  r.cases.push_back(skipped);
  std::ostringstream xml;
  JunitReporter().Write(r, xml);
  std::string s = xml.str();
  EXPECT_NE(s.find("tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\""), std::string::npos) << s;
  EXPECT_NE(s.find("<failure message=\"WA: wrong answer\" type=\"WA\">"), std::string::npos) << s;
  EXPECT_NE(s.find("crash &lt;&amp;&gt; &quot;quoted&quot;"), std::string::npos) << s;
  std::string path = std::string(::testing::TempDir()) + "judge-junit.xml";
  std::ofstream(path) << s;
  std::string cmd =
      "xmllint --noout --schema " + std::string(JUDGE_SOURCE_DIR) + "/tests/schemas/junit.xsd " + path + " 2>&1";
  ASSERT_EQ(std::system("command -v xmllint >/dev/null"), 0) << "xmllint is installed by scripts/install-deps.sh";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

TEST(GradescopeReport, HasTheSpecFieldsAndOnlyAcceptedPerformanceOnTheLeaderboard) {
  RunReport r = Sample();
  Json g = GradescopeResults(r);                   // the default policy: 80 points over the cases, 20 for speed
  EXPECT_DOUBLE_EQ(g["score"].get<double>(), 40);  // one of two cases; no speed points with a WA
  EXPECT_DOUBLE_EQ(g["max_score"].get<double>(), 100);
  for (const char* key : {"execution_time", "output", "visibility", "tests", "leaderboard"})
    EXPECT_TRUE(g.contains(key)) << key;
  ASSERT_EQ(g["tests"].size(), 3u);  // two cases and "performance"
  EXPECT_EQ(g["tests"][2]["name"], "performance");
  EXPECT_DOUBLE_EQ(g["tests"][2]["max_score"].get<double>(), 20);
  for (const auto& t : g["tests"]) {
    for (const char* key : {"name", "score", "max_score", "status", "output", "visibility"})
      EXPECT_TRUE(t.contains(key)) << key;
    EXPECT_TRUE(t["status"] == "passed" || t["status"] == "failed");
  }
  EXPECT_EQ(g["tests"][1]["status"], "failed");
  EXPECT_NE(g["tests"][1]["output"].get<std::string>().find("WA (wrong answer): output[0]"), std::string::npos);
  ASSERT_EQ(g["leaderboard"].size(), 1u);
  EXPECT_EQ(g["leaderboard"][0]["order"], "asc");
  r.cases[0].flags.push_back("work escaped the event window");  // a flagged time is not ranked
  EXPECT_TRUE(GradescopeResults(r)["leaderboard"].empty());
}

// Found by fuzzing: a compile log quoting a Latin-1 source line, or a file name that is not UTF-8,
// made the JSON dump throw (nlohmann's type_error 316) and aborted a whole batch.
TEST(ReportText, EveryFormatCarriesTextThatWasNotUtf8) {
  RunReport r = Sample();
  r.build.log = "k.cu:3: error: \"caf\xE9\" is \xC4\xE3\xBA\xC3";
  ForEachText(r, [](std::string& s) { s += " \xE9"; });
  EXPECT_THROW((void)ReportToJson(r).dump(), Json::type_error);  // what a finished report must never do
  MakeTextValid(r);
  ForEachText(r, [](std::string& s) { EXPECT_TRUE(IsValidUtf8(s)) << s; });
  EXPECT_EQ(r.build.log, "k.cu:3: error: \"caf\xEF\xBF\xBD\" is \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD \xEF\xBF\xBD");
  for (const char* format : {"text", "json", "junit", "gradescope", "markdown", "html"}) {
    std::ostringstream out;
    MakeReporter(format)->Write(r, out);
    EXPECT_TRUE(IsValidUtf8(out.str())) << format;
    EXPECT_NE(out.str().find("\xEF\xBF\xBD"), std::string::npos) << format << ": the text is carried, not dropped";
  }
}

// A report read back is input (judge merge): one without its sections reads with defaults instead
// of reading past the end of an object (a const Json's operator[] asked for a key it lacks).
TEST(JsonReport, AReportWithoutItsSectionsReadsBackWithDefaults) {
  auto r = ReportFromJson(
      Json{{"schema", "gpu-judge.report"}, {"schema_version", kReportSchemaVersion}, {"cases", Json::array()}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->submission_path, "");
  EXPECT_EQ(r->build.log, "");
}

TEST(Format, HumanQuantities) {
  EXPECT_EQ(FormatMs(0.0196), "19.60 us");
  EXPECT_EQ(FormatMs(7.4), "7.40 ms");
  EXPECT_EQ(FormatMs(2800), "2.80 s");
  EXPECT_EQ(FormatCount(100000000), "100,000,000");
  EXPECT_EQ(FormatScalars({{"N", 4194304}}), "N=4,194,304");
}

}  // namespace
}  // namespace judge

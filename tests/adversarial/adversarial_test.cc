// SPDX-License-Identifier: MIT
// The adversarial suite: every hostile or broken submission in manifest.json must get its expected
// verdict, the judge must never crash or hang on it, and a good submission judged right after it
// must be accepted with normal timing. Host entries run everywhere (CI included) through the host
// test double; cuda entries need a GPU (label gpu) and are skipped, with the reason, without one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "judge/device/device.h"
#include "judge/util/fs.h"
#include "tests/judge_cli.h"

namespace judge::testing {
namespace {

struct Entry {
  std::string file, device, expect, detail, flag, what;
  std::vector<std::string> args;
  bool templated = false;
  std::vector<std::string> absent;  // what no report (text or JSON) may show
  std::vector<std::string> shows;   // what the JSON report must show (the submission's own output included)
  std::string name;                 // the test's name where one file is judged twice
  std::string skip_layers;          // $JUDGE_SANDBOX_SKIP: a defence behind the one left out must hold
  bool unflagged = false;           // a forgery that must change nothing: not even a flag
};

void PrintTo(const Entry& e, std::ostream* os) { *os << e.file << " [" << e.device << "]"; }

std::vector<Entry> LoadManifest(const std::string& device) {
  Json m = Json::parse(ReadFile(SourcePath("tests/adversarial/manifest.json")).value());
  std::vector<Entry> out;
  for (const auto& c : m["cases"]) {
    if (c["device"] != device) continue;
    out.push_back({c["file"], c["device"], c["expect"], c["detail"], c.value("flag", ""), c["what"],
                   c.value("args", std::vector<std::string>{}), c.value("template", false),
                   c.value("absent", std::vector<std::string>{}), c.value("shows", std::vector<std::string>{}),
                   c.value("name", ""), c.value("skip_layers", ""), c.value("unflagged", false)});
  }
  return out;
}

std::string GpuMissing() {
  static const std::string missing = [] {
    auto info = MakeCudaDevice()->Info();
    return info.ok() ? std::string() : info.error().message;
  }();
  return missing;
}

// Fills @REPO@ so the submission knows where the judge's secrets lie, and replaces each line
// `#include "inline:NAME"` with tests/adversarial/parts/NAME: a submission is one file (its
// compiler reads nothing else), so the parts forging fixtures share are inlined, not included.
std::string Materialize(const Entry& e) {
  std::string path = SourcePath("tests/adversarial/" + e.file);
  if (!e.templated) return path;
  std::string text = ReadFile(path).value();
  for (size_t at; (at = text.find("@REPO@")) != std::string::npos;) text.replace(at, 6, JUDGE_SOURCE_DIR);
  const std::string inline_mark = "#include \"inline:";
  for (size_t at = 0; (at = text.find(inline_mark, at)) != std::string::npos;) {
    size_t name_end = text.find('"', at + inline_mark.size());
    std::string name = text.substr(at + inline_mark.size(), name_end - at - inline_mark.size());
    std::string part = ReadFile(SourcePath("tests/adversarial/parts/" + name)).value();
    text.replace(at, name_end + 1 - at, part);
    at += part.size();  // once: a part is not searched for more
  }
  std::string dir =
      std::filesystem::temp_directory_path().string() + "/judge-adversarial-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  EXPECT_TRUE(WriteFileAtomic(dir + "/" + e.file, text).ok());
  return dir + "/" + e.file;
}

std::vector<std::string> DeviceArgs(const std::string& device) {
  if (device == "cuda") return {};
  return {"--device", "host", "--testcases", SourcePath("tests/e2e/testcases/reduction")};
}

// A good submission's perf case, for "normal timing after the hostile one".
double GoodMedianMs(const std::string& device, std::string* verdict) {
  std::vector<std::string> args = {
      "run",
      device == "cuda" ? SourcePath("submissions/10_vectorized.cu") : SourcePath("tests/host_submissions/good_sum.cc"),
      "--cases", device == "cuda" ? "perf_4m" : "perf_small", "-q"};
  for (auto& a : DeviceArgs(device)) args.push_back(a);
  JudgeRun r = RunJudge(args);
  *verdict = r.report.is_object() ? r.report["verdict"].get<std::string>() : "(no report: " + r.output + ")";
  return r.report.is_object() ? r.report["cases"][0]["timing"]["device"]["median_ms"].get<double>() : 0;
}

class Adversarial : public ::testing::TestWithParam<Entry> {};

TEST_P(Adversarial, GetsItsVerdictAndTheJudgeCarriesOn) {
  const Entry& e = GetParam();
  if (e.device == "cuda" && !GpuMissing().empty()) GTEST_SKIP() << "no CUDA GPU here (" << GpuMissing() << ")";
  static std::map<std::string, double> baseline;
  std::string verdict;
  if (!baseline.count(e.device)) baseline[e.device] = GoodMedianMs(e.device, &verdict);

  std::vector<std::string> args = {"run", Materialize(e), "-q"};
  for (auto& a : DeviceArgs(e.device)) args.push_back(a);
  for (auto& a : e.args) args.push_back(a);
  std::vector<std::string> launcher;
  if (!e.skip_layers.empty()) launcher = {"env", "JUDGE_SANDBOX_SKIP=" + e.skip_layers};
  JudgeRun r = RunJudge(args, 300, launcher);
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << "the judge itself failed (exit " << r.exit_code << "):\n"
                                                    << r.output;
  ASSERT_TRUE(r.report.is_object()) << r.output;
  std::string all_details = r.report["build"]["log"].get<std::string>() + "\n";
  std::string all_flags;
  for (const auto& c : r.report["cases"]) {
    all_details += c["detail"].get<std::string>() + "\n";
    for (const auto& f : c["flags"]) all_flags += f.get<std::string>() + "\n";
  }
  std::string first_detail;  // one line for the log: the first non-empty detail
  for (std::stringstream ss(all_details); std::getline(ss, first_detail) && first_detail.empty();) {}
  std::cout << "ADVERSARIAL " << e.file << " [" << e.device << "]: " << r.report["verdict"].get<std::string>() << " - "
            << first_detail.substr(0, 300)
            << (all_flags.empty() ? "" : " | flag: " + all_flags.substr(0, all_flags.find('\n'))) << "\n";
  EXPECT_EQ(r.report["verdict"], e.expect) << e.what << "\n" << all_details;
  EXPECT_NE(all_details.find(e.detail), std::string::npos) << "expected \"" << e.detail << "\" in:\n" << all_details;
  if (!e.flag.empty()) EXPECT_NE(all_flags.find(e.flag), std::string::npos) << "flags:\n" << all_flags;
  if (e.unflagged) EXPECT_EQ(all_flags, "") << e.what;
  for (const auto& wanted : e.shows)
    EXPECT_NE(r.report.dump().find(wanted), std::string::npos) << "the JSON report does not show \"" << wanted << "\"";
  for (const auto& secret : e.absent) {
    EXPECT_EQ(r.output.find(secret), std::string::npos) << "the text report shows \"" << secret << "\":\n" << r.output;
    EXPECT_EQ(r.report.dump().find(secret), std::string::npos) << "the JSON report shows \"" << secret << "\"";
  }
  bool listed_protections = r.report["protections"].is_array() && !r.report["protections"].empty();
  if (e.expect != "CE") EXPECT_TRUE(listed_protections) << "the report must state the sandbox layers";

  double after = GoodMedianMs(e.device, &verdict);
  EXPECT_EQ(verdict, "AC") << "a good submission right after " << e.file;
  double slack = e.device == "cuda" ? 1.3 : 3.0;  // the host double on a shared 2-core CI box is noisy
  EXPECT_LT(after, baseline[e.device] * slack)
      << "timing after " << e.file << ": " << after << " ms vs " << baseline[e.device];
}

std::string Name(const ::testing::TestParamInfo<Entry>& info) {
  std::string n = info.param.name.empty() ? info.param.file : info.param.name;
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Host, Adversarial, ::testing::ValuesIn(LoadManifest("host")), Name);
INSTANTIATE_TEST_SUITE_P(Cuda, Adversarial, ::testing::ValuesIn(LoadManifest("cuda")), Name);

}  // namespace
}  // namespace judge::testing

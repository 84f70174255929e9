// SPDX-License-Identifier: MIT
#include "judge/testcase/testcase.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>

#include "judge/problem/problem.h"
#include "judge/testcase/generate.h"
#include "judge/util/fs.h"

#ifndef JUDGE_SOURCE_DIR
#error "JUDGE_SOURCE_DIR must point at the repository"
#endif

namespace judge {
namespace {

namespace fs = std::filesystem;

class TestcaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    problem_ = LoadProblem(std::string(JUDGE_SOURCE_DIR) + "/problems", "reduction").value();
    dir_ = MakeTempDir(fs::temp_directory_path().string(), "judge-testcase-test-").value();
  }
  void TearDown() override { RemoveTree(dir_); }
  // Writes a file with one case whose JSON is `c`, and loads it.
  Expected<std::vector<Case>> LoadOne(const std::string& c) {
    std::string path = dir_ + "/t.json";
    WriteFileAtomic(path, "{\"problem\": \"reduction\", \"cases\": [" + c + "]}").ok();
    return LoadTestcaseFile(path, problem_);
  }
  std::string ErrorOf(const std::string& c) {
    auto r = LoadOne(c);
    return r.ok() ? "(loaded fine)" : r.error().message;
  }
  Problem problem_;
  std::string dir_;
};

TEST_F(TestcaseTest, TheShippedTestcasesLoad) {
  auto cases = LoadTestcaseDir(std::string(JUDGE_SOURCE_DIR) + "/testcases/reduction", problem_);
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  EXPECT_GE(cases->size(), 30u);
  bool has_perf = false, has_max = false;
  for (const auto& c : *cases) {
    has_perf |= c.IsPerformance() && c.scalars.at("N") == 4194304;
    has_max |= c.scalars.at("N") == 100000000;
  }
  EXPECT_TRUE(has_perf);
  EXPECT_TRUE(has_max);
}

// Integer-valued reduction cases promise an exact answer in any summation order, float atomics
// included: that holds only while every partial sum stays under 2^24 in every hidden draw (the
// variants redraw the values). 12 standard deviations of the sum (the mean's drift added) leave
// no draw that crosses; [-1000, 1000] at N = 10^8 crossed in about one draw in 130 and gave
// article version 05 a WA on an H100 (2026-12-06).
TEST_F(TestcaseTest, IntegerValuedReductionCasesStayExactInFloatInEveryDraw) {
  auto cases = LoadTestcaseDir(std::string(JUDGE_SOURCE_DIR) + "/testcases/reduction", problem_);
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  int integer_cases = 0;
  for (const auto& c : *cases) {
    const auto& g = c.inputs.at("input").generate;
    if (!g || g->dist != "uniform_int" || c.kind == CaseKind::kStress) continue;
    ++integer_cases;
    const double n = double(c.scalars.at("N")), width = g->high - g->low + 1;
    const double mean = (g->low + g->high) / 2, sd = std::sqrt((width * width - 1) / 12);
    EXPECT_LT(std::fabs(mean) * n + 12 * sd * std::sqrt(n), 0x1.0p24) << c.name << " (" << c.source_file << ")";
  }
  EXPECT_GE(integer_cases, 2);  // max_n_mixed_int and perf_100m at least
}

TEST(SelectCases, AllIsAKeywordAndStressRunsOnlyWhenNamed) {
  auto make = [](std::string name, CaseKind kind) {
    Case c;
    c.name = std::move(name);
    c.kind = kind;
    return c;
  };
  const std::vector<Case> cases = {make("lc1_one_to_eight", CaseKind::kFunctional),
                                   make("float_stall_20m_ones", CaseKind::kEdge),
                                   make("perf_4m", CaseKind::kPerformance), make("max_n_uniform", CaseKind::kStress)};
  auto names = [&](std::vector<std::string> filters) {
    std::vector<std::string> out;
    for (const Case& c : SelectCases(cases, filters)) out.push_back(c.name);
    return out;
  };
  const std::vector<std::string> all_but_stress = {"lc1_one_to_eight", "float_stall_20m_ones", "perf_4m"};
  EXPECT_EQ(names({}), all_but_stress);
  EXPECT_EQ(names({"all"}), all_but_stress);  // not just the one name that contains "all"
  EXPECT_EQ(names({"all", "stress"}),
            (std::vector<std::string>{"lc1_one_to_eight", "float_stall_20m_ones", "perf_4m", "max_n_uniform"}));
  EXPECT_EQ(names({"performance"}), std::vector<std::string>{"perf_4m"});
  EXPECT_EQ(names({"stall", "lc1"}),
            (std::vector<std::string>{"lc1_one_to_eight", "float_stall_20m_ones"}));  // file order
  EXPECT_EQ(names({"max_n"}), std::vector<std::string>{"max_n_uniform"});
  EXPECT_TRUE(names({"nothing_like_this"}).empty());
}

TEST_F(TestcaseTest, LiteralCase) {
  auto r = LoadOne(R"({"name": "a", "scalars": {"N": 3}, "inputs": {"input": {"values": [1, 2, 3]}}})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->at(0).name, "a");
  EXPECT_EQ(r->at(0).kind, CaseKind::kFunctional);
  HostBytes b = MaterializeInput(r->at(0).inputs.at("input"), DType::kFloat32, 3);
  EXPECT_EQ(ElementAsDouble(b, DType::kFloat32, 2), 3.0);
}

TEST_F(TestcaseTest, ErrorsNameTheFileAndTheField) {
  std::string e = ErrorOf(R"({"name": "a", "scalars": {"N": "8"}, "inputs": {"input": {"values": [1]}}})");
  EXPECT_NE(e.find("t.json"), std::string::npos) << e;
  EXPECT_NE(e.find("cases[0].scalars.N: expected an integer"), std::string::npos) << e;

  e = ErrorOf(R"({"name": "a", "scalars": {"N": 2}, "inputs": {"input": {"values": [1]}}})");
  EXPECT_NE(e.find("cases[0].inputs.input.values: has 1 elements but input needs N = 2"), std::string::npos) << e;

  e = ErrorOf(R"({"name": "a", "scalars": {"N": 2}, "inputs": {"input": {"generate": {"dist": "unifrom"}}}})");
  EXPECT_NE(e.find("cases[0].inputs.input.generate.dist: unknown distribution \"unifrom\""), std::string::npos) << e;

  e = ErrorOf(R"({"name": "a", "scalars": {"N": 0}, "inputs": {"input": {"values": []}}})");
  EXPECT_NE(e.find("outside [1, 100000000]"), std::string::npos) << e;

  e = ErrorOf(
      R"({"name": "a", "scalars": {"N": 2}, "inputs": {"input": {"generate": {"dist": "uniform", "low": 0, "high": 5000}}}})");
  EXPECT_NE(e.find("outside the problem's range"), std::string::npos) << e;

  e = ErrorOf(R"({"scalars": {"N": 1}, "inputs": {"input": {"values": [1]}}})");
  EXPECT_NE(e.find("cases[0].name: required field is missing"), std::string::npos) << e;

  e = ErrorOf(R"({"name": "a", "note": 5, "scalars": {"N": 1}, "inputs": {"input": {"values": [1]}}})");  // was exit 4
  EXPECT_NE(e.find("cases[0].note: expected a string, got an integer"), std::string::npos) << e;

  e = ErrorOf(R"({"name": "a", "scalars": {"N": 1}, "inputs": {"input": {"values": [1]}, "extra": {"values": [1]}}})");
  EXPECT_NE(e.find("cases[0].inputs.extra: not an input or inout buffer"), std::string::npos) << e;
}

TEST_F(TestcaseTest, BadJsonGivesLineAndColumn) {
  std::string path = dir_ + "/broken.json";
  WriteFileAtomic(path, "{\n  \"problem\": \"reduction\",\n  \"cases\": [,]\n}").ok();
  auto r = LoadTestcaseFile(path, problem_);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("broken.json:3:"), std::string::npos) << r.error().message;
}

TEST_F(TestcaseTest, DuplicateNamesAreRejected) {
  std::string c = R"({"name": "same", "scalars": {"N": 1}, "inputs": {"input": {"values": [1]}}})";
  WriteFileAtomic(dir_ + "/a.json", "{\"problem\": \"reduction\", \"cases\": [" + c + "]}").ok();
  WriteFileAtomic(dir_ + "/b.json", "{\"problem\": \"reduction\", \"cases\": [" + c + "]}").ok();
  auto r = LoadTestcaseDir(dir_, problem_);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("duplicate case name \"same\""), std::string::npos);
}

// Found by fuzzing: each of these loaded silently.
TEST_F(TestcaseTest, ValuesTheBufferCannotHoldAreRejected) {
  problem_.params[0].value_min.reset();  // a problem without a value range: only float32 bounds them
  problem_.params[0].value_max.reset();
  std::string e = ErrorOf(R"({"name": "a", "scalars": {"N": 2}, "inputs": {"input": {"values": [1, 1e39]}}})");
  EXPECT_NE(
      e.find("t.json: cases[0].inputs.input.values[1]: 1e+39 does not fit input: float32 holds finite magnitudes up "
             "to 3.40282e+38"),
      std::string::npos)
      << e;
  e = ErrorOf(
      R"({"name": "a", "scalars": {"N": 2}, "inputs": {"input": {"generate": {"dist": "constant", "value": -1e39}}}})");
  EXPECT_NE(e.find("cases[0].inputs.input.generate: its values reach [-1e+39, -1e+39]: float32 holds"),
            std::string::npos)
      << e;
  e = ErrorOf(
      R"({"name": "a", "scalars": {"N": 2}, "inputs": {"input": {"generate": {"dist": "normal", "stddev": 1e38}}}})");
  EXPECT_NE(e.find("cases[0].inputs.input.generate: its values reach"), std::string::npos) << e;
  e = ErrorOf(
      R"({"name": "a", "scalars": {"N": 2}, "inputs": {"input": {"generate": {"dist": "constant", "value": 1, "head": [1e300]}}}})");
  EXPECT_NE(e.find("cases[0].inputs.input.generate.head[0]: 1e+300 does not fit input"), std::string::npos) << e;
  e = ErrorOf(R"({"name": "a", "scalars": {"N": 2}, "inputs": {"input": {"values": [1, 3.4e38]}}})");
  EXPECT_EQ(e, "(loaded fine)");
}

TEST_F(TestcaseTest, UnknownKeysAreRejectedWithTheKnownKeySuggested) {
  std::string e =
      ErrorOf(R"({"name": "a", "knid": "edge", "scalars": {"N": 1}, "inputs": {"input": {"values": [1]}}})");
  EXPECT_NE(e.find("t.json: cases[0]: unknown key \"knid\": did you mean \"kind\"?"), std::string::npos) << e;
  e = ErrorOf(
      R"({"name": "a", "scalars": {"N": 1}, "inputs": {"input": {"generate": {"dist": "constant", "value": 1, "seeed": 4}}}})");
  EXPECT_NE(e.find("cases[0].inputs.input.generate: unknown key \"seeed\": did you mean \"seed\"?"), std::string::npos)
      << e;
  e = ErrorOf(R"({"name": "a", "scalars": {"N": 1}, "inputs": {"input": {"valeus": [1]}}})");
  EXPECT_NE(e.find("cases[0].inputs.input: unknown key \"valeus\": did you mean \"values\"?"), std::string::npos) << e;
  e = ErrorOf(R"({"name": "a", "weight": 2, "scalars": {"N": 1}, "inputs": {"input": {"values": [1]}}})");
  EXPECT_NE(e.find("cases[0]: unknown key \"weight\" (known: name, kind, note, scalars, inputs)"), std::string::npos)
      << e;
  WriteFileAtomic(dir_ + "/top.json", R"({"problem": "reduction", "casse": []})").ok();
  auto top = LoadTestcaseFile(dir_ + "/top.json", problem_);
  ASSERT_FALSE(top.ok());
  EXPECT_NE(top.error().message.find("top.json: (top level): unknown key \"casse\": did you mean \"cases\"?"),
            std::string::npos)
      << top.error().message;
}

TEST_F(TestcaseTest, GeneratorsThatCannotDrawTheirValuesAreRejected) {
  std::string e = ErrorOf(
      R"({"name": "a", "scalars": {"N": 2}, "inputs": {"input": {"generate": {"dist": "normal", "stddev": -1}}}})");
  EXPECT_NE(e.find("cases[0].inputs.input.generate.stddev: must not be negative, got -1"), std::string::npos) << e;
  e = ErrorOf(
      R"({"name": "a", "scalars": {"N": 2}, "inputs": {"input": {"generate": {"dist": "uniform_int", "low": 0.2, "high": 0.8}}}})");
  EXPECT_NE(
      e.find(
          "cases[0].inputs.input.generate: uniform_int draws integers from low to high inclusive: give integer bounds, "
          "not 0.2 and 0.8"),
      std::string::npos)
      << e;
}

TEST_F(TestcaseTest, CaseNamesFollowOneRule) {
  for (const char* good : {"a", "perf_4m", "lc8-uniform.v2"}) EXPECT_TRUE(CheckCaseName(good).ok()) << good;
  std::string e = ErrorOf(R"({"name": "", "scalars": {"N": 1}, "inputs": {"input": {"values": [1]}}})");
  EXPECT_NE(e.find("cases[0].name: a case name is 1 to 64 letters, digits, '_', '-' and '.', not \"\""),
            std::string::npos)
      << e;
  e = ErrorOf(R"({"name": "\u001b[2Jgone", "scalars": {"N": 1}, "inputs": {"input": {"values": [1]}}})");
  EXPECT_NE(e.find("not \"\\u001b[2Jgone\""), std::string::npos) << e;
  EXPECT_EQ(e.find('\x1b'), std::string::npos) << "no escape sequence reaches the terminal";
  e = ErrorOf(R"({"name": ")" + std::string(100000, 'x') +
              R"(", "scalars": {"N": 1}, "inputs": {"input": {"values": [1]}}})");
  EXPECT_NE(e.find("(cut here)"), std::string::npos) << e.substr(0, 300);
  EXPECT_LT(e.size(), 400u);
}

TEST_F(TestcaseTest, LiteralValuesAreBoundedByWhatOneCaseRequestCarries) {
  auto literal = [](size_t n) {
    std::string values;
    for (size_t i = 0; i < n; ++i) values += (i ? ",1" : "1");
    return R"({"name": "a", "scalars": {"N": )" + std::to_string(n) + R"(}, "inputs": {"input": {"values": [)" +
           values + "]}}}";
  };
  EXPECT_EQ(ErrorOf(literal(kMaxLiteralValues)), "(loaded fine)");
  std::string e = ErrorOf(literal(kMaxLiteralValues + 1));
  EXPECT_NE(
      e.find("t.json: cases[0].inputs.input.values: the case's literal values number 32769, more than the 32768 a case "
             "may hold"),
      std::string::npos)
      << e;
  EXPECT_NE(e.find("give large inputs as a generator"), std::string::npos) << e;
}

// A size that only some scalars break is problem.json's to fix, even when a testcase reaches it.
TEST_F(TestcaseTest, ASizeTheProblemCannotEvaluateNamesProblemJson) {
  problem_.params[0].size_expr = "N / (N - 5)";
  std::string e = ErrorOf(R"({"name": "a", "scalars": {"N": 5}, "inputs": {"input": {"values": []}}})");
  EXPECT_EQ(e.find(std::string(JUDGE_SOURCE_DIR) +
                   "/problems/reduction/problem.json: signature[0].size: size expression "
                   "\"N / (N - 5)\": division by zero at N=5 (case \"a\" of " +
                   dir_ + "/t.json)"),
            0u)
      << e;
}

TEST(Generator, DeterministicAndInRange) {
  InputSpec spec;
  spec.generate = GeneratorSpec{};
  spec.generate->dist = "uniform";
  spec.generate->low = -1000;
  spec.generate->high = 1000;
  spec.generate->seed = 42;
  HostBytes a = MaterializeInput(spec, DType::kFloat32, 1 << 21);  // parallel path
  HostBytes b = MaterializeInput(spec, DType::kFloat32, 1 << 21);
  EXPECT_EQ(a, b);
  double lo = 1e9, hi = -1e9, sum = 0;
  for (int64_t i = 0; i < (1 << 21); ++i) {
    double v = ElementAsDouble(a, DType::kFloat32, i);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  EXPECT_GE(lo, -1000);
  EXPECT_LE(hi, 1000);
  EXPECT_LT(std::abs(sum / (1 << 21)), 5);  // mean near 0
  spec.generate->seed = 43;
  EXPECT_NE(a, MaterializeInput(spec, DType::kFloat32, 1 << 21));
}

TEST(Generator, HeadAndIntegerDistributions) {
  InputSpec spec;
  spec.generate = GeneratorSpec{};
  spec.generate->dist = "uniform_int";
  spec.generate->low = -3;
  spec.generate->high = 3;
  spec.generate->head = {1000};
  HostBytes a = MaterializeInput(spec, DType::kFloat32, 1000);
  EXPECT_EQ(ElementAsDouble(a, DType::kFloat32, 0), 1000);
  for (int i = 1; i < 1000; ++i) {
    double v = ElementAsDouble(a, DType::kFloat32, i);
    EXPECT_EQ(v, std::floor(v));
    EXPECT_GE(v, -3);
    EXPECT_LE(v, 3);
  }
}

// A sanity bound, not a benchmark (those are in scripts/): generation must never dominate a run.
TEST(Generator, HundredMillionValuesQuickly) {
  InputSpec spec;
  spec.generate = GeneratorSpec{};
  spec.generate->high = 1000;
  auto t0 = std::chrono::steady_clock::now();
  HostBytes a = MaterializeInput(spec, DType::kFloat32, 100000000);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  RecordProperty("seconds", std::to_string(s));
  EXPECT_LT(s, 10.0);
  EXPECT_EQ(a.size(), 400000000u);
}

}  // namespace
}  // namespace judge

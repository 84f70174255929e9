// SPDX-License-Identifier: MIT
#include "judge/problem/problem.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "judge/build/compile_cache.h"
#include "judge/check/reference.h"
#include "judge/problem/sample_header.h"
#include "judge/testcase/testcase.h"
#include "judge/util/fs.h"
#include "judge/util/json_fields.h"

namespace judge {
namespace {

const std::string kProblems = std::string(JUDGE_SOURCE_DIR) + "/problems";

TEST(Problem, LoadsTheReduction) {
  auto p = LoadProblem(kProblems, "reduction");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->Declaration(), "void solve(const float* input, float* output, int N)");
  EXPECT_EQ(p->check.kind, CheckKind::kTolerance);
  EXPECT_DOUBLE_EQ(p->check.tolerance.atol, 1e-5);
  EXPECT_DOUBLE_EQ(p->check.tolerance.rtol, 1e-5);
  EXPECT_FALSE(p->check.reference_bound);
  EXPECT_EQ(p->samples_dir, "submissions");
  Work w = p->WorkAt({{"N", 1000}}).value();
  EXPECT_EQ(w.bytes_read, 4000);
  EXPECT_EQ(w.bytes_written, 4);
  EXPECT_DOUBLE_EQ(w.flops, 1000);
  EXPECT_EQ(p->MinimumBytes({{"N", 4194304}}).value(), 4194304 * 4 + 4);
  ASSERT_FALSE(p->performance_sizes.empty());
  EXPECT_EQ(p->performance_sizes[0].at("N"), 4194304);
  EXPECT_GT(p->limits.call_seconds, 0);
}

TEST(Problem, UnknownProblemListsTheKnownOnes) {
  auto p = LoadProblem(kProblems, "softmax-typo");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, ErrorCode::kUsage);
  EXPECT_NE(p.error().message.find("known problems: "), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find("reduction"), std::string::npos) << p.error().message;
}

TEST(Problem, ScalarRangeIsEnforced) {
  auto p = LoadProblem(kProblems, "reduction").value();
  EXPECT_TRUE(p.ValidateScalars({{"N", 1}}).ok());
  EXPECT_FALSE(p.ValidateScalars({{"N", 100000001}}).ok());
  EXPECT_FALSE(p.ValidateScalars({}).ok());
  EXPECT_FALSE(p.ValidateScalars({{"N", 1}, {"M", 2}}).ok());
}

TEST(Reference, SumsInDoubleAndRoundsToFloat) {
  auto p = LoadProblem(kProblems, "reduction").value();
  CompileCache cache("");
  auto ref = Reference::Load(p, cache);
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  Case c;
  c.name = "t";
  c.scalars = {{"N", 8}};
  c.inputs["input"].values = std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(ref->Compute(p, c).value().values[0][0], 36.0);
  // 20M ones: exact in double (a float accumulator would stop at 2^24).
  Case ones;
  ones.name = "ones";
  ones.scalars = {{"N", 20000000}};
  ones.inputs["input"].generate = GeneratorSpec{};
  ones.inputs["input"].generate->dist = "constant";
  ones.inputs["input"].generate->value = 1.0;
  EXPECT_EQ(ref->Compute(p, ones).value().values[0][0], 20000000.0);
}

// A problem like the reduction whose reference is `source`, in a folder of its own.
Problem ProblemWithReference(const std::string& name, const std::string& source) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("judge-reference-" + std::to_string(::getpid()));
  fs::create_directories(root / name);
  fs::copy_file(kProblems + "/reference_abi.h", root / "reference_abi.h", fs::copy_options::overwrite_existing);
  std::string json = ReadFile(kProblems + "/reduction/problem.json", 1 << 20).value();
  for (size_t at; (at = json.find("\"reduction\"")) != std::string::npos;) json.replace(at, 11, "\"" + name + "\"");
  EXPECT_TRUE(WriteFileAtomic((root / name / "problem.json").string(), json).ok());
  EXPECT_TRUE(WriteFileAtomic((root / name / "reference.cc").string(), source).ok());
  return LoadProblem(root.string(), name).value();
}

Case SmallCase() {
  Case c;
  c.name = "small";
  c.scalars = {{"N", 3}};
  c.inputs["input"].values = std::vector<double>{1, 2, 3};
  return c;
}

// The reference runs in judge-reference, started for the call: not in the judge, nor in a fork of
// it (which would copy the judge's page tables and stall its other threads).
TEST(Reference, RunsInItsOwnProgram) {
  Problem p = ProblemWithReference("where", R"(#include <unistd.h>
#include <cstring>
#include "../reference_abi.h"
extern "C" int judge_reference(const JudgeReferenceArgs* args) {
  char exe[4096] = {};
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  const char* name = n > 0 ? strrchr(exe, '/') : nullptr;
  args->outputs[0][0] = name && strcmp(name, "/judge-reference") == 0 ? 1 : -1;
  return 0;
})");
  CompileCache cache("");
  auto ref = Reference::Load(p, cache);
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  auto out = ref->Compute(p, SmallCase());
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->values[0][0], 1.0);
  std::filesystem::remove_all(std::filesystem::path(p.dir).parent_path());
}

// Loading a reference reads its exports from the file: none of its code runs in the judge (a static
// constructor that aborts would take the judge down), and a missing entry point is said at once.
TEST(Reference, LoadingRunsNoneOfItsCodeInTheJudge) {
  Problem p = ProblemWithReference("constructor", R"(#include <cstdlib>
#include "../reference_abi.h"
static int aborts_when_loaded = (std::abort(), 0);
extern "C" int judge_reference(const JudgeReferenceArgs*) { return aborts_when_loaded; })");
  CompileCache cache("");
  auto ref = Reference::Load(p, cache);  // a dlopen here would abort the test
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  auto out = ref->Compute(p, SmallCase());  // the constructor aborts judge-reference: the problem's bug
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, ErrorCode::kInternal);
  EXPECT_NE(out.error().message.find("not in the submission"), std::string::npos) << out.error().message;
  std::filesystem::remove_all(std::filesystem::path(p.dir).parent_path());

  Problem none = ProblemWithReference("no_entry", R"(#include "../reference_abi.h"
extern "C" int judge_referense(const JudgeReferenceArgs*) { return 0; })");
  auto missing = Reference::Load(none, cache);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("does not define extern \"C\" judge_reference"), std::string::npos)
      << missing.error().message;
  std::filesystem::remove_all(std::filesystem::path(none.dir).parent_path());
}

TEST(Reference, AnExitInsideTheReferenceIsTheProblemsBugNamedAsSuch) {
  Problem p = ProblemWithReference("exits", R"(#include <cstdlib>
#include "../reference_abi.h"
extern "C" int judge_reference(const JudgeReferenceArgs*) { std::exit(0); })");
  CompileCache cache("");
  auto ref = Reference::Load(p, cache);
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  auto out = ref->Compute(p, SmallCase());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, ErrorCode::kInternal);
  EXPECT_NE(out.error().message.find("exited with code 0 before returning on case small"), std::string::npos)
      << out.error().message;
  EXPECT_NE(out.error().message.find("not in the submission"), std::string::npos);
  std::filesystem::remove_all(std::filesystem::path(p.dir).parent_path());
}

TEST(Reference, AMissingProgramSaysWhichAndWhereItIsLookedFor) {
  auto p = LoadProblem(kProblems, "reduction").value();
  CompileCache cache("");
  ::setenv("JUDGE_REFERENCE_PROGRAM", "/nonexistent/judge-reference", 1);
  auto ref = Reference::Load(p, cache);
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  auto out = ref->Compute(p, SmallCase());
  ::unsetenv("JUDGE_REFERENCE_PROGRAM");
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("cannot start /nonexistent/judge-reference"), std::string::npos)
      << out.error().message;
}
}  // namespace
}  // namespace judge

namespace judge {
namespace {

TEST(Problem, OptionalCompatibilityFields) {
  auto p = LoadProblem(kProblems, "reduction").value();
  EXPECT_FALSE(p.zero_init_outputs);  // strict by default: outputs start as NaN poison
  EXPECT_EQ(p.input_variants, 3);
  EXPECT_GT(p.limits.host_memory_mb, 0);
  EXPECT_GT(p.limits.output_kb, 0);
}

}  // namespace
}  // namespace judge

namespace judge {
namespace {

// problems/p/problem.json: the reduction's, changed by one edit per test.
class ProblemJson : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = MakeTempDir(std::filesystem::temp_directory_path().string(), "judge-problem-test-").value();
    WriteFileAtomic(root_ + "/p/reference.cc", "").ok();
  }
  void TearDown() override { RemoveTree(root_); }
  // The error of loading the reduction's problem.json after `edit`, or "(loaded fine)".
  std::string ErrorAfter(const std::function<void(Json&)>& edit) {
    Json j = ParseJsonFile(kProblems + "/reduction/problem.json").value();
    j["name"] = "p";
    edit(j);
    WriteFileAtomic(root_ + "/p/problem.json", j.dump(2)).ok();
    auto p = LoadProblem(root_, "p");
    return p.ok() ? "(loaded fine)" : p.error().message;
  }
  std::string File() const { return root_ + "/p/problem.json: "; }
  std::string root_;
};

// Found by fuzzing: each was accepted at load and failed later, or crashed, or named the testcase.
TEST_F(ProblemJson, SizeExpressionsAreCheckedAtLoad) {
  auto size = [&](const std::string& expr) { return ErrorAfter([&](Json& j) { j["signature"][0]["size"] = expr; }); };
  EXPECT_EQ(size("(N + 255) / 256"), "(loaded fine)");
  const std::string at = File() + "signature[0].size: size expression ";
  EXPECT_EQ(size(std::string(50000, '(') + "N" + std::string(50000, ')')).find(at), 0u);
  EXPECT_NE(size(std::string(50000, '(') + "N" + std::string(50000, ')')).find("nested deeper than 32"),
            std::string::npos);
  EXPECT_EQ(
      size("N * 99999999999999999999"),
      at + "\"N * 99999999999999999999\": the literal 99999999999999999999 is too large for 64-bit integers at N=1");
  EXPECT_EQ(size("N / 0"), at + "\"N / 0\": division by zero at N=1");
  EXPECT_EQ(size("N / (N - 1)"), at + "\"N / (N - 1)\": division by zero at N=1");
  EXPECT_EQ(size("N * N * N"), at + "\"N * N * N\": the value overflows 64-bit integers at N=100000000");
  EXPECT_EQ(size("N +"), at + "\"N +\": unexpected end at N=1");
  EXPECT_EQ(size("M"), at + "\"M\": unknown scalar 'M' at N=1");
  EXPECT_EQ(size("N - 2"), at + "\"N - 2\": -1 elements at N=1");
}

TEST_F(ProblemJson, RangesTolerancesAndLimitsAreCheckedAtLoadNamingTheField) {
  struct Row {
    std::function<void(Json&)> edit;
    std::string error;
  };
  const Row rows[] = {
      {[](Json& j) { j["check"]["atol"] = -1e-5; }, "check.atol: must be 0 to 1e+30, not -1e-05"},
      {[](Json& j) { j["check"]["kind"] = "approximately"; },
       "check.kind: expected \"tolerance\", \"exact\" or \"reference\", got \"approximately\""},
      {[](Json& j) {
         j["check"] = {{"kind", "exact"}, {"atol", 1}};
       },
       "check: unknown key \"atol\""},
      {[](Json& j) { j["roofline"]["flops"] = "N / 0"; }, "roofline.flops: "},
      {[](Json& j) { j["roofline"]["bytes_read"] = "M * 4"; }, "roofline.bytes_read: "},
      {[](Json& j) { j["libraries"] = {"-lcublas"}; }, "libraries[0]: expected a library name such as \"cublas\""},
      {[](Json& j) { j["samples"] = "../elsewhere"; }, "samples: expected a folder relative to the repository root"},
      {[](Json& j) { j["signature"][1]["writable"] = true; }, "signature[1].writable: only an input can be writable"},
      {[](Json& j) { j["signature"][1]["value_max"] = 3; },
       "signature[1].value_max: an output holds no input values to bound"},
      {[](Json& j) { j["signature"][1]["role"] = "scratch"; },
       "signature[1].role: expected \"input\", \"output\" or \"inout\", got \"scratch\""},
      {[](Json& j) { j["signature"][0]["value_max"] = "N /"; }, "signature[0].value_max: "},
      {[](Json& j) { j["signature"][2]["multiple_of"] = 256; },
       "signature[2]: min and max must be multiples of multiple_of (256)"},
      {[](Json& j) { j["signature"][2]["dtype"] = "float32", j["signature"][2]["multiple_of"] = 2; },
       "signature[2]: unknown key \"multiple_of\""},
      {[](Json& j) { j["signature"][0]["value_min"] = 10, j["signature"][0]["value_max"] = -10; },
       "signature[0]: value_min is above value_max"},
      {[](Json& j) { j["signature"][0]["value_max"] = 1e39; },
       "signature[0].value_max: float32 holds finite magnitudes up to 3.40282e+38, not 1e+39"},
      // N = 2^32 + 8 would reach solve() as 8.
      {[](Json& j) { j["signature"][2]["max"] = 4294967304LL; },
       "signature[2].max: must be -2147483648 to 2147483647, not 4294967304"},
      {[](Json& j) { j["signature"][2]["min"] = 10, j["signature"][2]["max"] = 5; },
       "signature[2]: min (10) is above max (5)"},
      {[](Json& j) { j["limits"]["call_seconds"] = 0; }, "limits.call_seconds: must be 0.001 to 86400 seconds, not 0"},
      {[](Json& j) { j["limits"]["host_memory_mb"] = 1; }, "limits.host_memory_mb: must be 64 to 16777216 MiB, not 1"},
      {[](Json& j) { j["timing"]["performance"]["warmup_calls"] = -1; },
       "timing.performance.warmup_calls: must be 0 to 1000, not -1"},
      {[](Json& j) { j["chek"] = j["check"]; }, "(top level): unknown key \"chek\": did you mean \"check\"?"},
      {[](Json& j) { j["signature"][1]["name"] = "input"; }, "signature[1].name: a second parameter named input"},
      {[](Json& j) { j["signature"][0]["name"] = "in put"; },
       "signature[0].name: expected a C identifier of at most 64 characters, got \"in put\""},
      {[](Json& j) { j["performance_sizes"][0]["N"] = 0; },
       "performance_sizes[0]: scalar N = 0 is outside [1, 100000000]"},
      {[](Json& j) {
         j["reference"]["description"] = {{"N", 1}};
       },  // was std::get's exception, exit 4
       "reference.description: expected a string, got an object"},
  };
  // An error names problem.json and the field; the message's rest (an expression's own error) may follow.
  for (const Row& r : rows) EXPECT_EQ(ErrorAfter(r.edit).substr(0, (File() + r.error).size()), File() + r.error);
}

// A sample's header: only the comment block it opens with; `article:` lines continue one another.
TEST(SampleHeader, ReadsTheOpeningCommentBlockOnly) {
  SampleHeader h = ParseSampleHeader(
      "// SPDX-License-Identifier: MIT\n// problem: block_sums\n// expect: WA\n// expect-detail: expected\n"
      "// article: every round reads and writes global memory;\n//   a note without a key\n"
      "// article: 377 us on an RTX 4090\n#include <cuda_runtime.h>\n// expect: AC\n// article: not this\n");
  EXPECT_EQ(h.problem, "block_sums");
  EXPECT_EQ(h.expect, "WA");
  EXPECT_EQ(h.expect_detail, "expected");
  EXPECT_EQ(h.article, "every round reads and writes global memory; 377 us on an RTX 4090");
}

}  // namespace
}  // namespace judge

// SPDX-License-Identifier: MIT
// A bounded fuzz of what the judge is given: its command line, the testcase JSON and problem.json.
// Each try changes a valid input at random and runs the real binary. Whatever the input, the judge
// never dies of a signal, never hangs, never calls bad input its own fault (exit 4) or crashes
// with an exception, and never changes a file it was not asked to write; bad input is exit 2 with
// a message that names the file or the option. The tries are drawn from one seed, printed with any
// failure; JUDGE_FUZZ_SEED=<seed> draws them again. A time budget keeps the test to seconds.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <set>

#include "judge/util/fs.h"
#include "tests/judge_cli.h"

namespace judge::testing {
namespace {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kTries = 150;                         // per kind of input
constexpr auto kBudget = std::chrono::seconds(20);  // per kind: tries not started by then are skipped

uint64_t Seed() {
  const char* s = std::getenv("JUDGE_FUZZ_SEED");
  return s && *s ? std::strtoull(s, nullptr, 0) : 20261130;
}

class Fuzz : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("judge-fuzz-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "root" / "problems" / "reduction");
    fs::create_directories(dir_ / "root" / "testcases" / "reduction");
    for (const char* f : {"problem.json", "reference.cc", "grading.json"})
      fs::copy_file(SourcePath(std::string("problems/reduction/") + f), dir_ / "root" / "problems" / "reduction" / f);
    fs::copy_file(SourcePath("problems/reference_abi.h"), dir_ / "root" / "problems" / "reference_abi.h");
    fs::create_directories(dir_ / "students");
    fs::copy_file(SourcePath("tests/host_submissions/good_sum.cc"), dir_ / "students" / "good.cc");
    fs::create_directories(dir_ / "folder");
    ::mkfifo(Path("fifo").c_str(), 0600);
    rng_.seed(Seed());
  }
  void TearDown() override {
    // What the tries came to, to see that the fuzz reaches past the first check.
    std::string tally;
    for (const auto& [code, n] : exits_) tally += " exit " + std::to_string(code) + ": " + std::to_string(n) + ";";
    std::cout << "seed " << Seed() << ":" << tally << "\n";
    fs::remove_all(dir_);
  }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::string Root() const { return Path("root"); }
  std::string Submission() const { return Path("students/good.cc"); }
  std::string Pick(const std::vector<std::string>& from) { return from[rng_() % from.size()]; }
  size_t Below(size_t n) { return size_t(rng_() % n); }

  // Files no try may change unless it was asked to write them and succeeded.
  std::map<std::string, std::string> Sentinels() const {
    return {{Path("old.json"), "{\"kept\": true}\n"}, {Path("old.xml"), "<kept/>\n"}, {Submission(), source_}};
  }
  void ResetSentinels() const {
    for (const auto& [path, text] : Sentinels()) WriteFileAtomic(path, text).ok();
  }
  // The checks every try makes; `named` are the options and values an exit-2 message may name.
  void Check(const JudgeRun& r, const std::vector<std::string>& named, const std::vector<std::string>& written) {
    ++exits_[r.exit_code];
    EXPECT_FALSE(r.timed_out) << r.output;
    EXPECT_TRUE(r.exit_code >= 0 && r.exit_code <= 2) << "exit " << r.exit_code << ":\n" << r.output.substr(0, 2000);
    for (const char* crash : {"terminate called", "internal error", "what():", "Segmentation"})
      EXPECT_EQ(r.output.find(crash), std::string::npos) << r.output.substr(0, 2000);
    if (r.exit_code == 2) {
      bool names = false;
      for (const auto& n : named) names |= n.size() >= 2 && r.output.find(n) != std::string::npos;
      EXPECT_TRUE(names) << "the message names none of the options or files given:\n" << r.output.substr(0, 2000);
    }
    for (const auto& [path, text] : Sentinels()) {
      bool asked = r.exit_code != 2 && std::find(written.begin(), written.end(), path) != written.end();
      if (!asked) EXPECT_EQ(ReadFile(path).value_or("(gone)"), text) << path << " changed";
    }
  }

  // A JSON value where the judge's rules have edges, or one they accept (so that tries get past
  // the first check).
  Json Interesting() {
    switch (Below(6)) {
      case 4: return int64_t(1 + Below(5000));
      case 5: return double(Below(2001)) - 1000.25;
      case 0: {
        const double numbers[] = {0,
                                  -1,
                                  1,
                                  0.5,
                                  -0.5,
                                  1e39,
                                  -1e39,
                                  1e308,
                                  4294967304.0,
                                  2147483648.0,
                                  -2147483649.0,
                                  9007199254740993.0,
                                  1e-320,
                                  100000000,
                                  100000001,
                                  1000,
                                  1001,
                                  -1000.5,
                                  32769};
        return numbers[Below(std::size(numbers))];
      }
      case 1: {
        std::vector<std::string> strings = {"",
                                            "N",
                                            "N / 0",
                                            "N / (N - 1)",
                                            "(N + 255) / 256",
                                            "N * 99999999999999999999",
                                            "N * N * N",
                                            "N +",
                                            "M",
                                            "N - 2",
                                            "\x1b[2J",
                                            std::string(100000, 'x'),
                                            std::string(50000, '(') + "N" + std::string(50000, ')'),
                                            "float32",
                                            "int32",
                                            "scalar",
                                            "buffer",
                                            "input",
                                            "output",
                                            "uniform_int",
                                            "normal",
                                            "constant",
                                            "arange",
                                            "uniform",
                                            "performance",
                                            "stress",
                                            "reduction",
                                            "caf\xc3\xa9"};
        return Pick(strings);
      }
      case 2: {
        static const Json deep = [] {
          Json j = 1;
          for (int i = 0; i < 5000; ++i) {
            Json outer = Json::array();
            outer.push_back(std::move(j));
            j = std::move(outer);
          }
          return j;
        }();
        const Json others[] = {nullptr,        true, Json::array(), Json::object(), Json::array({1, 2, 3}),
                               Json{{"N", 1}}, deep};
        return others[Below(std::size(others))];
      }
      default: {
        Json values = Json::array();
        size_t n = Pick({"0", "1", "8", "32769"}) == "32769" ? 32769 : Below(9);
        for (size_t i = 0; i < n; ++i) values.push_back(double(Below(2001)) - 1000);
        return values;
      }
    }
  }

  // One random change somewhere in `doc`: a value replaced, a key dropped or misspelt, a key added.
  void Mutate(Json& doc) {
    std::vector<Json::json_pointer> paths;
    std::function<void(const Json&, const Json::json_pointer&)> walk = [&](const Json& j,
                                                                           const Json::json_pointer& at) {
      paths.push_back(at);
      if (at.to_string().size() > 200) return;  // not into a 5000-deep array
      if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it) walk(it.value(), at / it.key());
      else if (j.is_array() && j.size() <= 16)
        for (size_t i = 0; i < j.size(); ++i) walk(j[i], at / i);
    };
    walk(doc, Json::json_pointer());
    Json::json_pointer at = paths[Below(paths.size())];
    Json& target = doc[at];
    switch (Below(4)) {
      case 0: target = Interesting(); break;
      case 1:
        if (!at.empty() && doc[at.parent_pointer()].is_object())
          doc[at.parent_pointer()].erase(at.back());
        else
          target = Interesting();
        break;
      case 2:
        if (!at.empty() && doc[at.parent_pointer()].is_object() && at.back().size() > 2) {
          std::string key = at.back();
          std::swap(key[1], key[2]);  // "kind" -> "knid"
          // Misspelling a misspelt key may spell it right again.
          if (planted_.erase(at.back()) == 0 && key != at.back()) planted_.insert(key);
          Json value = target;
          doc[at.parent_pointer()].erase(at.back());
          doc[at.parent_pointer()][key] = value;
        } else {
          target = Interesting();
        }
        break;
      default:
        if (target.is_object()) {
          std::string key = Pick({"seeed", "weight", "valeus", "knid", "tolerence"});
          target[key] = Interesting();
          planted_.insert(key);
        } else
          target = Interesting();
    }
  }

  // Whether `j` still holds a key a mutation misspelt or made up, where the judge reads keys (not
  // inside the free text of a description or a note): such a document must be refused.
  bool HoldsPlantedKey(const Json& j) const {
    if (j.is_array()) return std::any_of(j.begin(), j.end(), [&](const Json& e) { return HoldsPlantedKey(e); });
    if (!j.is_object()) return false;
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (planted_.count(it.key())) return true;
      if (it.key() != "description" && it.key() != "note" && it.key() != "schema_version" &&
          HoldsPlantedKey(it.value()))
        return true;
    }
    return false;
  }

  static Json BaseTestcases() {
    return Json::parse(R"({"schema_version": 1, "problem": "reduction", "cases": [
      {"name": "example", "kind": "example", "scalars": {"N": 8}, "inputs": {"input": {"values": [1, 2, 3, 4, 5, 6, 7, 8]}}},
      {"name": "ints", "scalars": {"N": 1000}, "inputs": {"input": {"generate": {"dist": "uniform_int", "low": -1000, "high": 1000, "seed": 3}}}},
      {"name": "bell", "kind": "edge", "scalars": {"N": 777}, "inputs": {"input": {"generate": {"dist": "normal", "mean": 0, "stddev": 10, "head": [1000]}}}},
      {"name": "perf", "kind": "performance", "scalars": {"N": 5000}, "inputs": {"input": {"generate": {"dist": "uniform", "low": 0, "high": 1, "seed": 9}}}}]})");
  }

  fs::path dir_;
  std::mt19937_64 rng_;
  std::map<int, int> exits_;
  std::set<std::string> planted_;  // keys the mutations of this try misspelt or made up
  std::string source_ = ReadFile(SourcePath("tests/host_submissions/good_sum.cc")).value_or("");
};

#define TRY_TRACE(kind, i, what) \
  SCOPED_TRACE(::testing::Message() << kind << " try " << i << " of seed " << Seed() << " (JUDGE_FUZZ_SEED): " << what)

TEST_F(Fuzz, CommandLine) {
  struct Option {
    std::string name;
    std::vector<std::string> values;
    bool writes = false;  // a file `judge run` writes
    bool batch = true;    // `judge batch` takes it too
  };
  // Not a FIFO: one no one reads is a write that fails after the run, as /dev/full is (util_test).
  const std::vector<std::string> paths = {Path("old.json"), Path("old.xml"),      Submission(),
                                          Path("folder"),   "/dev/null",          Path("new/report.out"),
                                          "/dev/zero",      Path("missing.json"), ""};
  const std::vector<Option> options = {
      {"--call-timeout", {"0", "-5", "1e18", "abc", "0.5", "10", "1e-9", "86401", ""}},
      {"--memory-limit-mb", {"0", "-1", "1", "63", "64", "1e12", "100000000", "x"}, false, false},
      {"--timing-processes", {"0", "65", "-1", "2", "x", "99999999999"}},
      {"--format",
       {"", ",", "text", "json", "yaml", "text,json,junit,gradescope,markdown,html", "\x1b[31m"},
       false,
       false},
      {"--cases", {"", "all", "nomatch", "example", "stress", ",,,"}},
      {"--flush", {"read", "write", "both", ""}},
      {"--out", paths, true, false},
      {"--junit", paths, true, false},
      {"--gradescope", paths, true, false},
      {"--markdown", paths, true, false},
      {"--html", paths, true, false},
      {"--points",
       {"/dev/zero", Path("fifo"), Path("missing.json"), Path("old.xml"), Path("folder"),
        SourcePath("problems/reduction/grading.json")}},
      {"--testcases", {Path("missing"), Path("folder"), "/dev/null", Submission()}},
      {"--problem", {"nope", "", "../reduction", "reduction"}},
      {"--jobs", {"-5", "0", "1", "1025", "x"}, false, true},
      {"--shard", {"0/99999999999", "0/1", "1/2", "2/2", "-1/2", "1", "a/b", ""}, false, true},
  };
  const auto start = Clock::now();
  for (int i = 0; i < kTries && Clock::now() - start < kBudget; ++i) {
    ResetSentinels();
    const bool batch = Below(4) == 0;
    std::vector<std::string> args = {batch ? "batch" : "run",
                                     batch ? Path("students") : Submission(),
                                     "--device",
                                     "host",
                                     "--root",
                                     Root(),
                                     "--testcases",
                                     SourcePath("tests/e2e/testcases/reduction"),
                                     "--cases",
                                     "example",
                                     "--cache-dir",
                                     JUDGE_TEST_CACHE_DIR,
                                     "-q"};
    if (batch) args.insert(args.end(), {"--out", Path("results")});
    std::vector<std::string> named, written;
    for (size_t n = 1 + Below(3); n > 0; --n) {
      const Option& o = options[Below(options.size())];
      if (batch && !o.batch) continue;
      if (!batch && (o.name == "--jobs" || o.name == "--shard")) continue;
      std::string value = Pick(o.values);
      args.insert(args.end(), {o.name, value});
      named.insert(named.end(), {o.name, value});
      if (o.writes) written.push_back(value);
    }
    std::string line;
    for (const auto& a : args) line += " " + a;
    TRY_TRACE("command line", i, "judge" + line);
    Check(RunJudgeExactly(args, 60), named, written);
  }
}

TEST_F(Fuzz, TestcaseJson) {
  const std::string file = Root() + "/testcases/reduction/cases.json";
  const auto start = Clock::now();
  for (int i = 0; i < kTries && Clock::now() - start < kBudget; ++i) {
    ResetSentinels();
    Json doc = BaseTestcases();
    planted_.clear();
    for (size_t n = 1 + Below(2); n > 0; --n) Mutate(doc);
    std::string text = doc.dump();
    ASSERT_TRUE(WriteFileAtomic(file, text).ok());
    TRY_TRACE("testcase", i, text.substr(0, 600));
    JudgeRun list = RunJudgeExactly({"list", "--root", Root()}, 60);
    Check(list, {"cases.json", "testcases/reduction"}, {});
    if (HoldsPlantedKey(doc)) EXPECT_EQ(list.exit_code, 2) << "a misspelt key loaded:\n" << list.output.substr(0, 2000);
    bool small = list.exit_code == 0;
    for (const auto& c : doc.is_object() ? doc.value("cases", Json::array()) : Json::array())
      if (c.is_object() && c.contains("scalars") && c["scalars"].is_object())
        for (const auto& [k, v] : c["scalars"].items()) small &= v.is_number() && v.get<double>() <= 1e5;
    if (!small) continue;
    // Testcases that load are judged, and a correct submission passes every one of them.
    JudgeRun run = RunJudgeExactly({"run", Submission(), "--device", "host", "--root", Root(), "--cases", "all",
                                    "--cache-dir", JUDGE_TEST_CACHE_DIR, "-q"},
                                   120);
    Check(run, {"cases.json", "testcases/reduction"}, {});
    EXPECT_EQ(run.exit_code, 0) << run.output.substr(0, 3000);
  }
}

TEST_F(Fuzz, ProblemJson) {
  const std::string file = Root() + "/problems/reduction/problem.json";
  const Json base = Json::parse(ReadFile(file).value());
  ASSERT_TRUE(WriteFileAtomic(Root() + "/testcases/reduction/cases.json", BaseTestcases().dump()).ok());
  const auto start = Clock::now();
  for (int i = 0; i < kTries && Clock::now() - start < kBudget; ++i) {
    ResetSentinels();
    Json doc = base;
    planted_.clear();
    for (size_t n = 1 + Below(2); n > 0; --n) Mutate(doc);
    std::string text = doc.dump();
    ASSERT_TRUE(WriteFileAtomic(file, text).ok());
    TRY_TRACE("problem.json", i, text.substr(0, 600));
    // A testcase the changed problem no longer accepts is named as such: either file may be named.
    JudgeRun list = RunJudgeExactly({"list", "--root", Root()}, 60);
    Check(list, {"problem.json", "cases.json"}, {});
    if (HoldsPlantedKey(doc)) EXPECT_EQ(list.exit_code, 2) << "a misspelt key loaded:\n" << list.output.substr(0, 2000);
  }
}

}  // namespace
}  // namespace judge::testing

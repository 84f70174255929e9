// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <filesystem>

#include "judge/build/compile_cache.h"
#include "judge/build/compile_log.h"
#include "judge/build/elf_symbols.h"
#include "judge/util/fs.h"

namespace judge {
namespace {

namespace fs = std::filesystem;

// Counts compiles; "compiles" by copying a real library, or fails when the source says FAIL.
class FakeCompiler : public Compiler {
 public:
  explicit FakeCompiler(std::string library) : library_(std::move(library)) {}
  std::string Name() const override { return "fake"; }
  Expected<std::string> Identity() override { return identity; }
  std::vector<std::string> Flags(const std::string&) const override { return flags; }
  Expected<ProcessResult> Compile(const std::string& source, const std::string& output, const std::string&,
                                  double) override {
    ++compiles;
    ProcessResult r;
    std::string text = ReadFile(source).value();
    if (text.find("TIMEOUT") != std::string::npos) { r.timed_out = true; return r; }
    if (text.find("FAIL") != std::string::npos) { r.exit_code = 1; r.output = source + ":2:3: error: expected ';'"; return r; }
    fs::copy_file(library_, output);
    r.exit_code = 0;
    return r;
  }
  int compiles = 0;
  std::string identity = "fake 1.0";
  std::vector<std::string> flags = {"-O3"};

 private:
  std::string library_;
};

class BuildTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir(fs::temp_directory_path().string(), "judge-build-test-").value();
    // Any real shared library will do as the fake compiler's product.
    HostCompiler cc;
    WriteFileAtomic(dir_ + "/lib.cc", "extern \"C\" void solve(const float*, float*, int) {}\n"
                                      "void solve(const float*, float*, long) {}\n"
                                      "static void hidden() {}\n").ok();
    auto r = cc.Compile(dir_ + "/lib.cc", dir_ + "/lib.so", "host", 120);
    ASSERT_TRUE(r.ok() && r->Succeeded()) << (r.ok() ? r->output : r.error().message);
  }
  void TearDown() override { RemoveTree(dir_); }
  std::string Source(const std::string& name, const std::string& text) {
    WriteFileAtomic(dir_ + "/" + name, text).ok();
    return dir_ + "/" + name;
  }
  std::string dir_;
};

TEST(CompileCacheKey, EveryInputChangesTheKey) {
  std::string base = CompileCacheKey("nvcc 13.0", {"-O3"}, "sm_90", "src");
  EXPECT_EQ(base.size(), 64u);
  EXPECT_EQ(base, CompileCacheKey("nvcc 13.0", {"-O3"}, "sm_90", "src"));
  EXPECT_NE(base, CompileCacheKey("nvcc 12.8", {"-O3"}, "sm_90", "src"));
  EXPECT_NE(base, CompileCacheKey("nvcc 13.0", {"-O2"}, "sm_90", "src"));
  EXPECT_NE(base, CompileCacheKey("nvcc 13.0", {"-O3"}, "sm_80", "src"));
  EXPECT_NE(base, CompileCacheKey("nvcc 13.0", {"-O3"}, "sm_90", "src "));
  // Delimiting: moving bytes between fields must not collide.
  EXPECT_NE(CompileCacheKey("a", {"bc"}, "t", "s"), CompileCacheKey("ab", {"c"}, "t", "s"));
}

TEST_F(BuildTest, SecondBuildIsACacheHit) {
  FakeCompiler fake(dir_ + "/lib.so");
  CompileCache cache(dir_ + "/cache");
  std::string src = Source("a.cu", "good");
  auto first = cache.Build(fake, src, "sm_90", 10);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first->ok);
  EXPECT_FALSE(first->cache_hit);
  auto second = cache.Build(fake, src, "sm_90", 10);
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(second->cache_hit);
  EXPECT_EQ(second->library_path, first->library_path);
  EXPECT_EQ(fake.compiles, 1);
  EXPECT_TRUE(fs::is_empty(dir_ + "/cache/tmp"));  // the build folder was cleaned up
  fake.identity = "fake 2.0";  // a new compiler invalidates
  EXPECT_FALSE(cache.Build(fake, src, "sm_90", 10)->cache_hit);
  EXPECT_EQ(fake.compiles, 2);
}

TEST_F(BuildTest, CompileErrorsAreCachedWithTheirLog) {
  FakeCompiler fake(dir_ + "/lib.so");
  CompileCache cache(dir_ + "/cache");
  std::string src = Source("bad.cu", "FAIL");
  auto first = cache.Build(fake, src, "sm_90", 10);
  ASSERT_TRUE(first.ok());
  EXPECT_FALSE(first->ok);
  EXPECT_NE(first->log.find(":2:3: error"), std::string::npos);
  auto second = cache.Build(fake, src, "sm_90", 10);
  EXPECT_TRUE(second->cache_hit);
  EXPECT_FALSE(second->ok);
  EXPECT_EQ(second->log, first->log);
  EXPECT_EQ(fake.compiles, 1);
}

TEST_F(BuildTest, CachedDiagnosticsNameTheCurrentFile) {
  FakeCompiler fake(dir_ + "/lib.so");
  CompileCache cache(dir_ + "/cache");
  std::string first = Source("first.cu", "FAIL"), second = Source("second.cu", "FAIL");
  EXPECT_NE(cache.Build(fake, first, "sm_90", 10)->log.find("first.cu:2:3"), std::string::npos);
  auto hit = cache.Build(fake, second, "sm_90", 10);
  EXPECT_TRUE(hit->cache_hit);
  EXPECT_NE(hit->log.find("second.cu:2:3"), std::string::npos) << hit->log;
  EXPECT_EQ(hit->log.find("first.cu"), std::string::npos) << hit->log;
}

TEST_F(BuildTest, TimeoutsAreNotCached) {
  FakeCompiler fake(dir_ + "/lib.so");
  CompileCache cache(dir_ + "/cache");
  std::string src = Source("slow.cu", "TIMEOUT");
  auto first = cache.Build(fake, src, "sm_90", 10);
  EXPECT_TRUE(first->timed_out);
  EXPECT_FALSE(cache.Build(fake, src, "sm_90", 10)->cache_hit);
  EXPECT_EQ(fake.compiles, 2);
}

// ---- the compile log filter ------------------------------------------------------------------------

TEST(CompileLog, ForeignDiagnosticsKeepLocationAndMessageButNotTheirSourceLines) {
  const std::string gcc =
      "In file included from /s/sub.cc:1:\n"
      "/tmp/x/secret.h:1:1: error: 'MARKER' does not name a type\n"
      "    1 | MARKER leaked line\n"
      "      | ^~~~~~\n"
      "  +++ |+#include <leak>\n"
      "/s/sub.cc:3:19: error: expected ';' before '}' token\n"
      "    3 | int g() { return 1 }\n"
      "      |                   ^~\n"
      "      |                   ;\n";
  EXPECT_EQ(WithoutForeignSourceLines(gcc, "/s/sub.cc"),
            "In file included from /s/sub.cc:1:\n"
            "/tmp/x/secret.h:1:1: error: 'MARKER' does not name a type\n"
            "/s/sub.cc:3:19: error: expected ';' before '}' token\n"
            "    3 | int g() { return 1 }\n"
            "      |                   ^~\n"
            "      |                   ;\n");
  // nvcc's front end: continuation lines of the message, then the quoted line and its caret.
  const std::string edg =
      "/usr/include/c++/12/bits/stl_vector.h(1293): note #3326-D: function \"push_back\" does not match\n"
      "            argument types are: (A)\n"
      "        push_back(value_type&& __x)\n"
      "        ^\n"
      "\n"
      "/s/sub.cu(3): error: expected a \";\"\n"
      "  int g() { return 1 }\n"
      "                     ^\n"
      "\n"
      "2 errors detected in the compilation of \"/s/sub.cu\".\n";
  EXPECT_EQ(WithoutForeignSourceLines(edg, "/s/sub.cu"),
            "/usr/include/c++/12/bits/stl_vector.h(1293): note #3326-D: function \"push_back\" does not match\n"
            "            argument types are: (A)\n"
            "\n"
            "/s/sub.cu(3): error: expected a \";\"\n"
            "  int g() { return 1 }\n"
            "                     ^\n"
            "\n"
            "2 errors detected in the compilation of \"/s/sub.cu\".\n");
  // An old gcc or clang quotes without a gutter; a quoted line that looks like a diagnostic is still a quote.
  const std::string plain =
      "/etc/passwd:1:5: error: expected unqualified-id\n"
      "root:x:0:0:root:/root:/bin/bash\n"
      "    ^\n"
      "/etc/secret.log:2:1: error: stray '@'\n"
      " /s/sub.cc:9:1: error: forged\n"
      " ^\n";
  EXPECT_EQ(WithoutForeignSourceLines(plain, "/s/sub.cc"),
            "/etc/passwd:1:5: error: expected unqualified-id\n"
            "/etc/secret.log:2:1: error: stray '@'\n");
}

TEST(CompileLog, TheSubmissionsOwnDiagnosticsAreUntouched) {
  const std::string log =
      "/s/sub.cc: In function 'void solve(const float*, float*, int)':\n"
      "/s/sub.cc:3:3: error: expected ',' or ';' before 'for'\n"
      "    3 |   for (int i = 0; i < N; ++i) s += input[i];\n"
      "      |   ^~~\n"
      "compilation terminated.";
  EXPECT_EQ(WithoutForeignSourceLines(log, "/s/sub.cc"), log);
  EXPECT_EQ(WithoutForeignSourceLines("", "/s/sub.cc"), "");
}

TEST_F(BuildTest, ReadsExportedFunctionsFromElf) {
  auto names = ReadExportedFunctions(dir_ + "/lib.so");
  ASSERT_TRUE(names.ok()) << names.error().message;
  auto has = [&](const std::string& n) { return std::find(names->begin(), names->end(), n) != names->end(); };
  EXPECT_TRUE(has("solve"));
  EXPECT_TRUE(has("_Z5solvePKfPfl"));
  EXPECT_FALSE(has("_ZL6hiddenv"));
}

TEST_F(BuildTest, RejectsNonElf) {
  auto r = ReadExportedFunctions(Source("not.so", "hello, I am text"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("not a usable"), std::string::npos);
}

TEST(EntryPoint, FoundWhenUnmangled) {
  EXPECT_TRUE(CheckEntryPoint({"foo", "solve"}, "solve", "void solve(const float* input, float* output, int N)").found);
}

TEST(EntryPoint, ExplainsAManglingMistake) {
  auto c = CheckEntryPoint({"_Z5solvePKfPfi"}, "solve", "void solve(const float* input, float* output, int N)");
  EXPECT_FALSE(c.found);
  EXPECT_NE(c.message.find("solve(float const*, float*, int)"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("extern \"C\" void solve(const float* input, float* output, int N)"), std::string::npos);
}

TEST(EntryPoint, ExplainsAMissingFunction) {
  auto c = CheckEntryPoint({"reduce"}, "solve", "void solve(const float* input, float* output, int N)");
  EXPECT_FALSE(c.found);
  EXPECT_NE(c.message.find("no function named `solve`"), std::string::npos);
}

}  // namespace
}  // namespace judge

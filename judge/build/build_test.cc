// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
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
  std::vector<std::string> ReadPaths() const override { return {}; }
  Expected<ProcessResult> Compile(const CompileJob& job) override {
    ++compiles;
    ProcessResult r;
    std::string text = ReadFile(job.source).value();
    if (text.find("TIMEOUT") != std::string::npos) {
      r.timed_out = true;
      return r;
    }
    if (text.find("HUGE") != std::string::npos) {
      r.signal = SIGXFSZ;
      return r;
    }
    if (text.find("CANCELLED") != std::string::npos) {  // a scheduler's cancel reached the compiler too
      r.signal = SIGTERM;
      return r;
    }
    if (text.find("FAIL") != std::string::npos) {
      r.exit_code = 1;
      r.output = job.source + ":2:3: error: expected ';'";
      return r;
    }
    fs::copy_file(library_, job.output);
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
    WriteFileAtomic(dir_ + "/lib.cc",
                    "extern \"C\" void solve(const float*, float*, int) {}\n"
                    "void solve(const float*, float*, long) {}\n"
                    "static void hidden() {}\n")
        .ok();
    auto r = cc.Compile(CompileJob{dir_ + "/lib.cc", dir_ + "/lib.so", "host", ProcessOptions{120}});
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
  fake.identity = "fake 2.0";                      // a new compiler invalidates
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

// Found on a real Slurm: a task cancelled while it compiled had its compiler killed by SIGTERM, and
// the requeued task got that "compile error" from the cache without compiling.
TEST_F(BuildTest, ACompilerKilledFromOutsideIsNotCachedButALimitsSignalIs) {
  FakeCompiler fake(dir_ + "/lib.so");
  CompileCache cache(dir_ + "/cache");
  std::string cancelled = Source("cancelled.cu", "CANCELLED");
  auto first = cache.Build(fake, cancelled, "sm_90", 10);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->ok);
  EXPECT_NE(first->log.find("SIGTERM"), std::string::npos) << first->log;
  EXPECT_FALSE(cache.Build(fake, cancelled, "sm_90", 10)->cache_hit);
  EXPECT_EQ(fake.compiles, 2);

  std::string huge = Source("huge.cu", "HUGE");  // the sandbox's file size limit: the source's doing
  EXPECT_FALSE(cache.Build(fake, huge, "sm_90", 10)->ok);
  EXPECT_TRUE(cache.Build(fake, huge, "sm_90", 10)->cache_hit);
  EXPECT_EQ(fake.compiles, 3);
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

// ---- the compile sandbox, with the real host compiler ----------------------------------------------

class CompileSandboxTest : public BuildTest {
 protected:
  void SetUp() override {
    BuildTest::SetUp();
    // A secret outside the submission's folder, as another student's source or a token would be.
    secret_dir_ = MakeTempDir(fs::temp_directory_path().string(), "judge-secret-").value();
    ::chmod(secret_dir_.c_str(), 0755);
    // Only its quoted source line can show the marker: no compiler message names a comment.
    ASSERT_TRUE(WriteFileAtomic(secret_dir_ + "/secret.h", "@ // " + marker_ + "\n").ok());
    ::chmod((secret_dir_ + "/secret.h").c_str(), 0644);
    ::chmod(dir_.c_str(), 0755);
    // Scratch folders go to $TMPDIR: a private one shows that each is removed.
    tmp_ = MakeTempDir(fs::temp_directory_path().string(), "judge-compile-tmp-").value();
    ::chmod(tmp_.c_str(), 01777);  // like /tmp: an unprivileged compile makes its folder here too
    old_tmpdir_ = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "";
    ::setenv("TMPDIR", tmp_.c_str(), 1);
  }
  void TearDown() override {
    if (old_tmpdir_.empty())
      ::unsetenv("TMPDIR");
    else
      ::setenv("TMPDIR", old_tmpdir_.c_str(), 1);
    RemoveTree(tmp_);
    RemoveTree(secret_dir_);
    BuildTest::TearDown();
  }
  static const Protection* Layer(const BuildOutcome& b, const std::string& name) {
    for (const auto& p : b.sandbox)
      if (p.name == name) return &p;
    return nullptr;
  }
  std::string tmp_, old_tmpdir_, secret_dir_;
  const std::string marker_ = "SECRET_MARKER_" + std::to_string(::getpid());
};

TEST_F(CompileSandboxTest, AGoodSourceCompilesIsCachedAndReportsItsLayers) {
  HostCompiler cc;
  CompileCache cache(dir_ + "/cache");
  std::string src =
      Source("good.cc", "extern \"C\" void solve(const float* in, float* out, int n) { out[0] = in[0]; }\n");
  auto first = cache.Build(cc, src, "host", 120);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_TRUE(first->ok) << first->log;
  EXPECT_TRUE(fs::exists(first->library_path));
  std::vector<std::string> names;
  for (const auto& p : first->sandbox) names.push_back(p.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"rlimits", "network_namespace", "unprivileged", "no_new_privs", "landlock"}));
  EXPECT_TRUE(Layer(*first, "rlimits")->active) << Layer(*first, "rlimits")->detail;
  EXPECT_TRUE(Layer(*first, "unprivileged")->active) << Layer(*first, "unprivileged")->detail;
  EXPECT_TRUE(Layer(*first, "no_new_privs")->active);
  if (geteuid() == 0) EXPECT_EQ(Layer(*first, "unprivileged")->detail, "dropped root to nobody (65534)");
  // The network namespace takes effect wherever this process could make one (not in every container).
  pid_t probe = fork();
  if (probe == 0) _exit(unshare(CLONE_NEWNET) == 0 ? 0 : 1);
  int probed = 0;
  waitpid(probe, &probed, 0);
  if (WEXITSTATUS(probed) == 0)
    EXPECT_TRUE(Layer(*first, "network_namespace")->active) << Layer(*first, "network_namespace")->detail;
  auto second = cache.Build(cc, src, "host", 120);
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(second->cache_hit);
  EXPECT_EQ(second->library_path, first->library_path);
  EXPECT_EQ(SandboxReportToJson(second->sandbox), SandboxReportToJson(first->sandbox));  // the original compile's
  for (const auto& e : fs::directory_iterator(tmp_)) ADD_FAILURE() << "a scratch folder was left behind: " << e.path();
}

TEST_F(CompileSandboxTest, IncludingAFileOutsideTheSubmissionShowsNoneOfIt) {
  HostCompiler cc;
  CompileCache cache(dir_ + "/cache");
  for (const std::string& target : {secret_dir_ + "/secret.h", std::string("/etc/passwd")}) {
    std::string src =
        Source("leak.cc", "#include \"" + target + "\"\nextern \"C\" void solve(const float*, float*, int) {}\n");
    auto built = cache.Build(cc, src, "host", 120);
    ASSERT_TRUE(built.ok()) << built.error().message;
    EXPECT_FALSE(built->ok);
    EXPECT_NE(built->log.find(target), std::string::npos) << built->log;  // where, and why
    EXPECT_EQ(built->log.find(marker_), std::string::npos) << built->log;
    EXPECT_EQ(built->log.find("root:x:0:0"), std::string::npos) << built->log;
    if (Layer(*built, "landlock")->active)  // not even read
      EXPECT_NE(built->log.find("Permission denied"), std::string::npos) << built->log;
  }
}

TEST_F(CompileSandboxTest, WithoutLandlockTheLogFilterStillHidesTheIncludedFile) {
  ::setenv("JUDGE_SANDBOX_SKIP", "landlock", 1);
  HostCompiler cc;
  std::string src = Source("leak.cc", "#include \"" + secret_dir_ + "/secret.h\"\n");
  auto built = CompileCache(dir_ + "/cache").Build(cc, src, "host", 120);
  ::unsetenv("JUDGE_SANDBOX_SKIP");
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_FALSE(built->ok);
  EXPECT_NE(built->log.find(secret_dir_ + "/secret.h:1:1: error: stray"), std::string::npos)
      << built->log;  // it was read
  EXPECT_EQ(built->log.find(marker_), std::string::npos) << built->log;
}

TEST_F(CompileSandboxTest, ANeighbourOfTheSubmissionCannotBeIncluded) {
  // The submission is compiled alone: a relative include finds nothing next to the copy.
  Source("neighbour.h", "#define NEIGHBOUR 1\n");
  std::string src = Source("uses_neighbour.cc", "#include \"neighbour.h\"\nint x = NEIGHBOUR;\n");
  HostCompiler cc;
  auto built = CompileCache(dir_ + "/cache").Build(cc, src, "host", 120);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_FALSE(built->ok);
  EXPECT_NE(built->log.find(src + ":1:10: fatal error: neighbour.h: No such file or directory"), std::string::npos)
      << built->log;
}

TEST_F(CompileSandboxTest, ASyntaxErrorNamesTheSubmittedFileAndQuotesItsLine) {
  HostCompiler cc;
  std::string src = Source("typo.cc", "int f() {\n  return 1\n}\n");
  auto built = CompileCache(dir_ + "/cache").Build(cc, src, "host", 120);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_FALSE(built->ok);
  EXPECT_NE(built->log.find(src + ":2:11: error: expected "), std::string::npos) << built->log;
  EXPECT_NE(built->log.find("    2 |   return 1"), std::string::npos) << built->log;
  EXPECT_EQ(built->log.find(tmp_), std::string::npos) << "the scratch copy's path leaked into the log:\n" << built->log;
}

TEST_F(CompileSandboxTest, SkippedLayersAreReportedAndKeyedApart) {
  HostCompiler cc;
  std::string src = Source("good.cc", "int x = 1;\n");
  auto confined = CompileCache(dir_ + "/cache").Build(cc, src, "host", 120);
  ::setenv("JUDGE_SANDBOX_SKIP", "landlock,network_namespace", 1);
  auto skipped = CompileCache(dir_ + "/cache").Build(cc, src, "host", 120);
  ::unsetenv("JUDGE_SANDBOX_SKIP");
  ASSERT_TRUE(confined.ok() && skipped.ok());
  EXPECT_TRUE(skipped->ok) << skipped->log;
  EXPECT_FALSE(skipped->cache_hit) << "a library built with fewer layers must not share the confined one's entry";
  EXPECT_NE(skipped->key, confined->key);
  EXPECT_EQ(Layer(*skipped, "landlock")->detail, "skipped ($JUDGE_SANDBOX_SKIP)");
  EXPECT_FALSE(Layer(*skipped, "network_namespace")->active);
  EXPECT_TRUE(Layer(*skipped, "unprivileged")->active);
}

TEST_F(CompileSandboxTest, DisabledTheCompilerReadsTheSourceInPlaceAndSaysSo) {
  HostCompiler cc({"-I" + secret_dir_});
  std::string src = Source("trusted.cc", "#include \"secret.h\"\n");  // a trusted reference may include what it likes
  auto built = CompileCache(dir_ + "/cache", CompileSandboxPolicy{false, "the problem's trusted reference"})
                   .Build(cc, src, "host", 120);
  ASSERT_TRUE(built.ok()) << built.error().message;
  ASSERT_EQ(built->sandbox.size(), 1u);
  EXPECT_FALSE(built->sandbox[0].active);
  EXPECT_EQ(built->sandbox[0].detail, "the problem's trusted reference");
}

TEST_F(CompileSandboxTest, WithoutRootTheNetworkNamespaceComesFromAUserNamespace) {
  // As root, a child gives root up first (and is dumpable again, as a process its user started).
  std::string cache_dir = tmp_ + "/cache";
  std::string src = Source("good.cc", "int x = 1;\n");
  int pipefd[2];
  ASSERT_EQ(pipe(pipefd), 0);
  pid_t pid = fork();
  if (pid == 0) {
    if (geteuid() == 0 && (DropRoot().error != 0 || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0)) _exit(90);
    HostCompiler cc;
    auto built = CompileCache(cache_dir).Build(cc, src, "host", 120);
    std::string j =
        built.ok()
            ? Json{{"ok", built->ok}, {"log", built->log}, {"sandbox", SandboxReportToJson(built->sandbox)}}.dump()
            : Json{{"error", built.error().message}}.dump();
    (void)!write(pipefd[1], j.data(), j.size());
    _exit(0);
  }
  close(pipefd[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(pipefd[0], buf, sizeof buf)) > 0;) text.append(buf, size_t(n));
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  Json j = Json::parse(text);
  ASSERT_FALSE(j.contains("error")) << j["error"];
  EXPECT_TRUE(j["ok"].get<bool>()) << j["log"];
  for (const auto& p : SandboxReportFromJson(j["sandbox"])) {
    if (p.name != "network_namespace") continue;
    if (!p.active && p.detail.find("refused too") != std::string::npos)
      GTEST_SKIP() << "user namespaces are disabled here: " << p.detail;
    EXPECT_TRUE(p.active) << p.detail;
    EXPECT_NE(p.detail.find("inside an unprivileged user namespace (uid"), std::string::npos) << p.detail;
  }
  EXPECT_NE(j["sandbox"].dump().find("in its user namespace"), std::string::npos)
      << j["sandbox"].dump();  // the process limit
}

TEST_F(BuildTest, ACompilerKilledByASignalSaysSo) {
  FakeCompiler fake(dir_ + "/lib.so");
  auto built = CompileCache(dir_ + "/cache").Build(fake, Source("huge.cu", "HUGE"), "sm_90", 10);
  ASSERT_TRUE(built.ok());
  EXPECT_FALSE(built->ok);
  EXPECT_NE(built->log.find("the compiler was killed by SIGXFSZ"), std::string::npos) << built->log;
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

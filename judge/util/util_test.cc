// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <unistd.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "judge/util/fs.h"
#include "judge/util/json_fields.h"
#include "judge/util/parallel.h"
#include "judge/util/sha256.h"
#include "judge/util/size_expr.h"
#include "judge/util/subprocess.h"
#include "judge/util/utf8.h"

namespace judge {
namespace {

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalEqualsOneShot) {
  Sha256 h;
  h.Update("hello ");
  h.Update("world");
  EXPECT_EQ(h.HexDigest(), Sha256Hex("hello world"));
}

TEST(SizeExpr, EvaluatesWithScalars) {
  ScalarValues s{{"N", 1000}};
  EXPECT_EQ(EvalSizeExpr("N", s).value(), 1000);
  EXPECT_EQ(EvalSizeExpr("1", s).value(), 1);
  EXPECT_EQ(EvalSizeExpr("(N + 255) / 256", s).value(), 4);
  EXPECT_EQ(EvalSizeExpr("2*N - 3 % 2", s).value(), 1999);
}

TEST(SizeExpr, ErrorsNameTheProblem) {
  ScalarValues s{{"N", 4}};
  auto unknown = EvalSizeExpr("M * 2", s);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown scalar 'M'"), std::string::npos);
  EXPECT_FALSE(EvalSizeExpr("N / 0", s).ok());
  EXPECT_FALSE(EvalSizeExpr("(N", s).ok());
  EXPECT_FALSE(EvalSizeExpr("N $", s).ok());
}

// Found by fuzzing: 50,000 nested parentheses crashed the parser (SIGSEGV), and a literal past
// int64 was exit 4 "stoll".
TEST(SizeExpr, BoundsNestingAndOverflowWithErrorsNotCrashes) {
  ScalarValues s{{"N", 4}};
  EXPECT_EQ(EvalSizeExpr(std::string(kMaxSizeExprDepth, '(') + "N" + std::string(kMaxSizeExprDepth, ')'), s).value(),
            4);
  auto deep = EvalSizeExpr(std::string(50000, '(') + "N" + std::string(50000, ')'), s);
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.error().message.find("parentheses nested deeper than 32"), std::string::npos);
  auto literal = EvalSizeExpr("N * 99999999999999999999", s);
  ASSERT_FALSE(literal.ok());
  EXPECT_NE(literal.error().message.find("the literal 99999999999999999999 is too large"), std::string::npos)
      << literal.error().message;
  EXPECT_EQ(EvalSizeExpr("9223372036854775807", s).value(), INT64_MAX);
  for (const char* overflow : {"9223372036854775807 + N", "0 - 9223372036854775807 - N", "3037000500 * 3037000500",
                               "(0 - 9223372036854775807 - 1) / (0 - 1)"}) {
    auto r = EvalSizeExpr(overflow, s);
    ASSERT_FALSE(r.ok()) << overflow;
    EXPECT_NE(r.error().message.find("overflows 64-bit integers"), std::string::npos) << r.error().message;
  }
  EXPECT_EQ(EvalSizeExpr("N % (0 - 1)", s).value(), 0);
}

TEST(Utf8, EachMaximalInvalidSubpartBecomesOneReplacementCharacter) {
  const std::string R = "\xEF\xBF\xBD";  // U+FFFD
  struct Case {
    const char* what;
    std::string in, out;
  };
  const Case cases[] = {
      {"ASCII", "plain", "plain"},
      {"UTF-8 e acute", "caf\xC3\xA9", "caf\xC3\xA9"},
      {"UTF-8 Chinese and an emoji", "\xE4\xBD\xA0\xE5\xA5\xBD \xF0\x9F\x98\x80",
       "\xE4\xBD\xA0\xE5\xA5\xBD \xF0\x9F\x98\x80"},
      {"Latin-1 e acute", "caf\xE9 ok", "caf" + R + " ok"},
      {"GBK", "\xC4\xE3\xBA\xC3", R + R + R},
      {"a sequence cut short at the end", "x\xF0\x9F\x98", "x" + R},
      {"an overlong slash", "\xC0\xAF", R + R},
      {"a UTF-16 surrogate", "\xED\xA0\x80", R + R + R},
      {"above U+10FFFF", "\xF4\x90\x80\x80", R + R + R + R},
      {"a lone continuation byte",
       "a\x80"
       "b",
       "a" + R + "b"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(ValidUtf8(c.in), c.out) << c.what;
    EXPECT_EQ(IsValidUtf8(c.in), c.in == c.out) << c.what;
    // nlohmann::json's replacing dump follows the same practice: one rule, whichever applies it.
    EXPECT_EQ(Json(c.in).dump(-1, ' ', false, Json::error_handler_t::replace), Json(c.out).dump()) << c.what;
  }
}

TEST(Subprocess, CapturesOutputAndExitCode) {
  auto r = RunProcess({"sh", "-c", "echo out; echo err >&2; exit 7"}, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 7);
  EXPECT_NE(r->output.find("out"), std::string::npos);
  EXPECT_NE(r->output.find("err"), std::string::npos);
}

// Found by fuzzing: a compiler quoting a Latin-1 source line aborted the judge where the compile
// cache wrote the log as JSON.
TEST(Subprocess, OutputIsText) {
  auto r = RunProcess({"printf", "caf\\351 \\304\\343"}, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->output, "caf\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(Subprocess, KillsAtTheDeadline) {
  auto r = RunProcess({"sh", "-c", "sleep 30"}, ProcessOptions{0.3, 1024, ""});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_LT(r->seconds, 5);
}

TEST(Subprocess, CapsOutput) {
  auto r = RunProcess({"sh", "-c", "yes | head -c 100000"}, ProcessOptions{10, 1000, ""});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->output.size(), 1000u);
  EXPECT_TRUE(r->output_truncated);
}

TEST(Subprocess, MissingProgramIsAnError) { EXPECT_FALSE(RunProcess({"/nonexistent/program"}, {}).ok()); }

TEST(Subprocess, DescribesSignals) { EXPECT_EQ(DescribeSignal(11).rfind("SIGSEGV", 0), 0u); }
TEST(Subprocess, GivenEnvironmentReplacesTheJudgesWhole) {
  ::setenv("JUDGE_TEST_SECRET", "hunter2", 1);
  ProcessOptions options;
  options.env = std::vector<std::string>{"ONLY=this"};
  auto r = RunProcess({"/usr/bin/env"}, options);
  ::unsetenv("JUDGE_TEST_SECRET");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->output, "ONLY=this\n");
}

TEST(Subprocess, BeforeExecRunsInTheChildAndCanRefuseToStart) {
  ProcessOptions options;
  options.before_exec = [](int output_fd) {
    (void)!::write(output_fd, "confined\n", 9);
    return ::getpid() == ::getpgrp() ? 0 : 1;  // in the child, which leads its own process group
  };
  auto r = RunProcess({"sh", "-c", "echo ran"}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->output, "confined\nran\n");
  options.before_exec = [](int) { return 125; };
  r = RunProcess({"sh", "-c", "echo ran"}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 125);
  EXPECT_EQ(r->output, "");
}

// The child shares the caller's memory until it execs or exits, and StartSharingMemory returns
// only then: what it wrote is there, with no copy of the caller made.
TEST(StartSharingMemory, TheChildSharesTheCallersMemoryUntilItExits) {
  struct Shared {
    volatile pid_t seen = 0;
  } shared;
  auto started = StartSharingMemory(
      [](void* p) -> int {
        static_cast<Shared*>(p)->seen = ::getpid();
        ::_exit(7);
      },
      &shared);
  ASSERT_TRUE(started.ok()) << started.error().message;
  EXPECT_EQ(shared.seen, *started);  // written by the child, before the call returned
  int status = 0;
  ASSERT_EQ(::waitpid(*started, &status, 0), *started);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
}

TEST(StartSharingMemory, TheChildExecsAProgram) {
  static char* argv[] = {const_cast<char*>("/bin/sh"), const_cast<char*>("-c"), const_cast<char*>("exit 5"), nullptr};
  auto started = StartSharingMemory(
      [](void*) -> int {
        ::execv(argv[0], argv);
        ::_exit(127);
      },
      nullptr);
  ASSERT_TRUE(started.ok()) << started.error().message;
  int status = 0;
  ASSERT_EQ(::waitpid(*started, &status, 0), *started);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 5);
}

// A handler of the caller's would run the caller's code on the caller's memory in the child: the
// child takes the default action instead (SIGUSR1's is to end it), and the caller's handler never runs.
volatile sig_atomic_t g_handled = 0;
TEST(StartSharingMemory, TheCallersSignalHandlersDoNotRunInTheChild) {
  struct sigaction handler {
  }, old{};
  handler.sa_handler = [](int) { g_handled = 1; };
  ASSERT_EQ(::sigaction(SIGUSR1, &handler, &old), 0);
  auto started = StartSharingMemory(
      [](void*) -> int {
        ::kill(::getpid(), SIGUSR1);
        ::_exit(0);
      },
      nullptr);
  ASSERT_TRUE(started.ok()) << started.error().message;
  int status = 0;
  ASSERT_EQ(::waitpid(*started, &status, 0), *started);
  ::sigaction(SIGUSR1, &old, nullptr);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGUSR1);
  EXPECT_EQ(g_handled, 0);
}

// Every index once, each result where a loop would put it, on more than the calling thread.
TEST(ParallelFor, RunsEveryIndexOnceOnSeveralThreads) {
  std::vector<int> out(40, -1);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  ParallelFor(out.size(), 4, [&](size_t i) {
    out[i] = out[i] == -1 ? int(i * i) : -2;  // -2: run twice
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::lock_guard lock(mutex);
    threads.insert(std::this_thread::get_id());
  });
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], int(i * i));
  EXPECT_GT(threads.size(), 1u);
  EXPECT_LE(threads.size(), 4u);
  int runs = 0;
  ParallelFor(0, 4, [&](size_t) { ++runs; });
  EXPECT_EQ(runs, 0);
}

// The work runs on a thread of its own at the lower priority, and so does a process it starts; the
// calling thread keeps its own.
TEST(RunAtNice, LowersOnlyTheWorksThreadAndWhatItStarts) {
  auto nice_of_this_thread = [] { return ::getpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid))); };
  const int before = nice_of_this_thread();
  const int wanted = std::max(before, kBesideTimingNice);  // unprivileged, a thread cannot go back up
  int inside = -100;
  std::thread::id worker;
  std::string child;
  RunAtNice(wanted, [&] {
    inside = nice_of_this_thread();
    worker = std::this_thread::get_id();
    auto r = RunProcess({"/bin/sh", "-c", "cut -d' ' -f19 /proc/self/stat"}, {});
    if (r) child = r->output;
  });
  EXPECT_EQ(inside, wanted);
  EXPECT_NE(worker, std::this_thread::get_id());
  EXPECT_EQ(child, std::to_string(wanted) + "\n");
  EXPECT_EQ(nice_of_this_thread(), before);
}

TEST(Fs, AtomicWriteLeavesNoTemporaries) {
  auto dir = MakeTempDir(std::filesystem::temp_directory_path().string(), "judge-fs-test-");
  ASSERT_TRUE(dir.ok());
  std::string path = *dir + "/sub/file.txt";
  ASSERT_TRUE(WriteFileAtomic(path, "one").ok());
  ASSERT_TRUE(WriteFileAtomic(path, "two").ok());
  EXPECT_EQ(ReadFile(path).value(), "two");
  int entries = 0;
  for (auto& e : std::filesystem::directory_iterator(*dir + "/sub")) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1);
  RemoveTree(*dir);
}

TEST(Fs, MissingFileIsAUsageError) {
  auto r = ReadFile("/nonexistent/x.cu");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kUsage);
  EXPECT_NE(r.error().message.find("/nonexistent/x.cu"), std::string::npos);
}

// Found by fuzzing: a submission or cases.json that is /dev/zero grew the judge to 24 GB, a FIFO
// hung it.
TEST(Fs, ReadsOnlyRegularFiles) {
  auto zero = ReadFile("/dev/zero");
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().message, "/dev/zero is a character device: the judge reads only regular files");
  auto dir = MakeTempDir(std::filesystem::temp_directory_path().string(), "judge-fs-test-");
  ASSERT_TRUE(dir.ok());
  std::string fifo = *dir + "/cases.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto start = std::chrono::steady_clock::now();
  auto piped = ReadFile(fifo);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  ASSERT_FALSE(piped.ok());
  EXPECT_NE(piped.error().message.find("is a FIFO (named pipe): the judge reads only regular files"),
            std::string::npos);
  std::filesystem::create_symlink("/dev/zero", *dir + "/k.cu");
  EXPECT_NE(ReadFile(*dir + "/k.cu").error().message.find("a character device"), std::string::npos);
  EXPECT_NE(ReadFile(*dir).error().message.find("is a directory"), std::string::npos);
  RemoveTree(*dir);
}

TEST(Fs, ReadingStopsAtTheLimitAndSaysWhichLimit) {
  auto dir = MakeTempDir(std::filesystem::temp_directory_path().string(), "judge-fs-test-");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteFileAtomic(*dir + "/big", std::string(5000, 'x')).ok());
  EXPECT_EQ(ReadFile(*dir + "/big", 5000).value().size(), 5000u);
  auto r = ReadFile(*dir + "/big", 4096);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, *dir + "/big is larger than the judge's limit of 4 KiB for a file it reads");
  RemoveTree(*dir);
}

TEST(Fs, WriteErrorsNameTheFileAndTheReason) {
  auto full = WriteFileAtomic("/dev/full", "report");  // a device is written in place, never renamed over
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error().message, "cannot write /dev/full: No space left on device");
  struct stat st {};
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_TRUE(WriteFileAtomic("/dev/null", "report").ok());
  auto dir = MakeTempDir(std::filesystem::temp_directory_path().string(), "judge-fs-test-");
  ASSERT_TRUE(dir.ok());
  std::string fifo = *dir + "/report.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(WriteFileAtomic(fifo, "report").error().message, "cannot write " + fifo + ": a FIFO that no one reads");
  EXPECT_NE(WriteFileAtomic(*dir, "x").error().message.find("it is a directory"), std::string::npos);
  if (::geteuid() != 0) {  // root writes anywhere
    std::filesystem::create_directories(*dir + "/ro");
    ::chmod((*dir + "/ro").c_str(), 0500);
    EXPECT_EQ(WriteFileAtomic(*dir + "/ro/x.json", "x").error().message,
              "cannot write " + *dir + "/ro/x.json: Permission denied");
  }
  RemoveTree(*dir);
}

TEST(Fs, FormatBytesNamesTheUnit) {
  EXPECT_EQ(FormatBytes(uint64_t(256) << 20), "256 MiB");
  EXPECT_EQ(FormatBytes(4096), "4 KiB");
  EXPECT_EQ(FormatBytes(17), "17 bytes");
}

TEST(ForTerminal, ControlCharactersAreShownNotObeyed) {
  EXPECT_EQ(ForTerminal("line 1\nline\t2"), "line 1\nline\t2");  // newline and tab stay
  EXPECT_EQ(ForTerminal("\x1b[2J\x1b]0;pwned\x07"), "\\x1b[2J\\x1b]0;pwned\\x07");
  EXPECT_EQ(ForTerminal("ok\rfake"), "ok\\x0dfake");  // a carriage return would overwrite the line
  EXPECT_EQ(ForTerminal("a\x7f"), "a\\x7f");
  EXPECT_EQ(ForTerminal("\xc2\x9b"
                        "31m"),
            "\\u009b31m");                                                         // C1 CSI, as UTF-8
  EXPECT_EQ(ForTerminal("caf\xc3\xa9 \xe2\x82\xac"), "caf\xc3\xa9 \xe2\x82\xac");  // other text as it is
  EXPECT_EQ(ForTerminal("bad \xff byte"), "bad \xef\xbf\xbd byte");
}

TEST(ForTerminal, CutsAtACharactersStartAndSaysSo) {
  EXPECT_EQ(ForTerminal("abcdef", 3), "abc...");
  EXPECT_EQ(ForTerminal("abc", 3), "abc");
  EXPECT_EQ(ForTerminal("ab\xe2\x82\xac", 3), "ab...");  // not half a euro sign
  EXPECT_EQ(ForTerminal("ab\xe2\x82\xac", 4), "ab...");
  EXPECT_EQ(ForTerminal("ab\xe2\x82\xacz", 5), "ab\xe2\x82\xac...");
  EXPECT_TRUE(IsValidUtf8(ForTerminal("\xe2\x82\xac\xe2\x82\xac", 4)));
}

}  // namespace
}  // namespace judge

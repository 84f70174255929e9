// SPDX-License-Identifier: MIT
#include "judge/cli/command.h"

#include <signal.h>

#include <algorithm>
#include <iostream>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "judge/build/compile_cache.h"
#include "judge/core/verdict.h"
#include "judge/run/run_pipeline.h"
#include "judge/util/fs.h"

namespace judge::cli {
namespace {

std::atomic<bool> g_interrupted{false};

void OnSignal(int) { g_interrupted = true; }

void InstallSignalHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a dead worker must not kill the judge through its pipe
}

const Command* Find(std::span<const Command> commands, std::string_view name) {
  auto it = std::find_if(commands.begin(), commands.end(), [&](const Command& c) { return c.name == name; });
  return it == commands.end() ? nullptr : &*it;
}

void AddSharedOptions(cxxopts::Options& opts) {
  opts.add_options()("problem",
                     "problem name (a folder of problems/; default: the file's `// problem:` line, else reduction)",
                     cxxopts::value<std::string>())(
      "root", "folder holding problems/ and testcases/ (default: found from the current folder)",
      cxxopts::value<std::string>())("device",
                                     "cuda, or host for the GPU-less test double (host submissions are .cc files)",
                                     cxxopts::value<std::string>()->default_value("cuda"))(
      "arch", "GPU target, e.g. sm_90 (default: the present GPU's)", cxxopts::value<std::string>())(
      "cache-dir", "compile cache folder (default: $JUDGE_CACHE_DIR or ~/.cache/gpu-judge)",
      cxxopts::value<std::string>())("no-cache", "always recompile")("v,verbose", "log what the judge does");
}

Expected<SharedOptions> ReadSharedOptions(const cxxopts::ParseResult& args) {
  SharedOptions s;
  std::string device = args["device"].as<std::string>();
  auto kind = ParseDeviceKind(device);
  if (!kind)
    return MakeError(ErrorCode::kUsage,
                     "--device must be cuda or host (host: the GPU-less test double), not \"" + device + "\"");
  s.device = *kind;
  if (args.count("problem")) s.problem = args["problem"].as<std::string>();
  s.root = args.count("root") ? args["root"].as<std::string>() : LocateRoot(ExecutablePath());
  if (args.count("arch")) s.arch = args["arch"].as<std::string>();
  if (!args.count("no-cache"))
    s.cache_dir = args.count("cache-dir") ? args["cache-dir"].as<std::string>() : CompileCache::DefaultDir();
  s.verbose = args.count("verbose") > 0;
  return s;
}

cxxopts::Options OptionsOf(const Command& c) {
  cxxopts::Options opts("judge " + std::string(c.name), std::string(c.summary));
  if (c.takes == Takes::kSharedOptions) AddSharedOptions(opts);
  if (c.add_options) c.add_options(opts);
  opts.add_options()("h,help", "show this help")("operands", "", cxxopts::value<std::vector<std::string>>());
  opts.parse_positional({"operands"});
  opts.positional_help(std::string(c.operands.synopsis));
  return opts;
}

// cxxopts names the value it could not read ("Argument 'x' failed to parse"), not the option:
// the option is the one the value was given to.
std::string OptionOfValue(const std::string& what, int argc, char** argv) {
  auto quoted = [&](const std::string& v) {
    return what.find(cxxopts::LQUOTE + v + cxxopts::RQUOTE) != std::string::npos;
  };
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos && quoted(arg.substr(eq + 1))) return arg.substr(0, eq);
    if (i > 1 && argv[i - 1][0] == '-' && quoted(arg)) return argv[i - 1];
  }
  return "";
}

Expected<cxxopts::ParseResult> Parse(cxxopts::Options& opts, int argc, char** argv) {
  try {
    return opts.parse(argc, argv);
  } catch (const cxxopts::exceptions::incorrect_argument_type& e) {
    std::string option = OptionOfValue(e.what(), argc, argv);
    return MakeError(ErrorCode::kUsage, (option.empty() ? "" : option + ": ") + std::string(e.what()) + " (see `" +
                                            opts.program() + " --help`)");
  } catch (const std::exception& e) {
    return MakeError(ErrorCode::kUsage, std::string(e.what()) + " (see `" + opts.program() + " --help`)");
  }
}

Status CheckOperands(const Command& c, const std::vector<std::string>& operands) {
  if (operands.size() < c.operands.min) return MakeError(ErrorCode::kUsage, std::string(c.operands.missing));
  if (operands.size() <= c.operands.max) return Status::Ok();
  std::string name(c.name),
      takes = c.operands.synopsis.empty() ? "no arguments" : "only " + std::string(c.operands.synopsis);
  return MakeError(ErrorCode::kUsage, "unexpected argument \"" + operands[c.operands.max] + "\": `judge " + name +
                                          "` takes " + takes + " (see `judge " + name + " --help`)");
}

Expected<Invocation> Read(const Command& c, cxxopts::ParseResult args) {
  Invocation in;
  if (args.count("operands")) in.operands = args["operands"].as<std::vector<std::string>>();
  JUDGE_TRY(CheckOperands(c, in.operands));
  if (c.takes == Takes::kSharedOptions) {
    auto shared = ReadSharedOptions(args);
    if (!shared) return shared.error();
    in.shared = std::move(*shared);
  }
  in.options = std::move(args);
  return in;
}

// Prints the error; the exit code its kind means (README, "Exit codes").
int ExitFor(const Error& e) {
  switch (e.code) {
    case ErrorCode::kUsage:
    case ErrorCode::kBadInput: std::cerr << "error: " << e.message << "\n"; return int(ExitCode::kUsage);
    case ErrorCode::kNoDevice:
      std::cerr << "error: no usable CUDA GPU: " << e.message
                << "\nThe judge needs an NVIDIA GPU and its driver (in Docker: `docker run --gpus all ...`)."
                   "\nTo try the judge without a GPU, judge a host submission with --device host (see README).\n";
      return int(ExitCode::kNoDevice);
    default: std::cerr << "error: " << e.message << "\n"; return int(ExitCode::kInternalError);
  }
}

// Options come after the command's name: `judge run FILE --device host`.
int Execute(const Command& c, int argc, char** argv) {
  cxxopts::Options opts = OptionsOf(c);
  auto args = Parse(opts, argc - 1, argv + 1);
  if (!args) return ExitFor(args.error());
  if (args->count("help")) {
    std::cout << opts.help() << "\n";
    return 0;
  }
  auto in = Read(c, std::move(*args));
  if (!in) return ExitFor(in.error());
  if (in->shared.verbose) {
    spdlog::set_level(spdlog::level::debug);
    // Submissions judged side by side log from their own threads: the thread tells whose a line is.
    spdlog::set_pattern("[%H:%M:%S.%e] [%t] [%l] %v");
  }
  auto code = c.run(*in);
  return code ? *code : ExitFor(code.error());
}

std::string Usage(std::span<const Command> commands) {
  std::string text = "usage: judge <command> [options]\n\ncommands:\n";
  for (const Command& c : commands) {
    if (c.summary.empty()) continue;
    std::string head =
        std::string(c.name) + (c.operands.synopsis.empty() ? "" : " " + std::string(c.operands.synopsis));
    head.resize(std::max<size_t>(head.size() + 1, 15), ' ');
    text += "  " + head + std::string(c.summary) + "\n";
  }
  return text + "\n`judge <command> --help` shows the command's options.\n";
}

int Dispatch(std::span<const Command> commands, int argc, char** argv) {
  InstallSignalHandlers();
  // spdlog's default logger writes to stdout, which carries the command's result (`--format json`):
  // the judge's log, as its progress, goes to stderr.
  spdlog::set_default_logger(spdlog::stderr_color_mt("judge"));
  spdlog::set_level(spdlog::level::warn);
  std::string_view word = argc >= 2 ? argv[1] : "";
  if (word == "help" || word == "--help" || word == "-h") {
    std::cout << Usage(commands);
    return 0;
  }
  if (word == "--version") word = "version";
  if (const Command* c = Find(commands, word)) return Execute(*c, argc, argv);
  if (!word.empty()) std::cerr << "error: unknown command \"" << word << "\"\n";
  std::cerr << Usage(commands);
  return int(ExitCode::kUsage);
}

}  // namespace

const std::atomic<bool>& Interrupted() { return g_interrupted; }

int Main(std::span<const Command> commands, int argc, char** argv) {
  const Command* c = argc >= 2 ? Find(commands, argv[1]) : nullptr;
  if (c && c->takes == Takes::kNothing) return c->run(Invocation{}).value_or(int(ExitCode::kInternalError));
  try {
    return Dispatch(commands, argc, argv);
  } catch (const std::exception& e) {
    // Never reported as the submission's fault.
    std::cerr << "internal error (a judge bug, not the submission's fault): " << e.what() << "\n";
    return int(ExitCode::kInternalError);
  }
}

}  // namespace judge::cli

// SPDX-License-Identifier: MIT
// The `judge` command. Every command is a row of this table: its usage line, --help and argument
// checks are made from the row, and the shared options are read once for all of them.
#include "judge/cli/command.h"
#include "judge/cli/commands.h"
#include "judge/cli/profile_commands.h"
#include "judge/util/uninitialized.h"
#ifdef JUDGE_WITH_SERVE
#include "judge/cli/serve_commands.h"
#endif

namespace {

using judge::cli::Command;
using judge::cli::kAnyNumber;
using judge::cli::Takes;
namespace cli = judge::cli;

constexpr Command kCommands[] = {
    {"run",
     "judge one submission (.cu, or a prebuilt .so) and print its report",
     Takes::kSharedOptions,
     {"FILE", 1, 1, "judge run needs a submission file, e.g. `judge run submissions/06_warp_unroll.cu`"},
     cli::AddRunOptions,
     cli::RunCommand},
    {"build",
     "compile a submission and check its entry point, without running it",
     Takes::kSharedOptions,
     {"FILE", 1, 1, "judge build needs a source file, e.g. `judge build submissions/06_warp_unroll.cu --arch sm_90`"},
     nullptr,
     cli::BuildCommand},
    {"compare",
     "time A and B alternately on a performance case; the ratio with a 95% interval",
     Takes::kSharedOptions,
     {"A B", 2, 2, "judge compare takes two submissions, A and B"},
     cli::AddCompareOptions,
     cli::CompareCommand},
    {"ladder",
     "grade every sample in DIR (default submissions/) and print the story table",
     Takes::kSharedOptions,
     {"[DIR]", 0, 1, ""},
     cli::AddLadderOptions,
     cli::LadderCommand},
    {"batch",
     "grade many submissions (folders, files, globs) into a results folder, with a leaderboard",
     Takes::kSharedOptions,
     {"IN...", 1, kAnyNumber, "judge batch needs submissions: a folder, files or a glob, e.g. `judge batch students/`"},
     cli::AddBatchOptions,
     cli::BatchCommand},
    {"merge",
     "build the batch files (leaderboard, reports) from the results folders of shards",
     Takes::kSharedOptions,
     {"DIR...", 1, kAnyNumber,
      "judge merge needs the results folders of the shards, e.g. `judge merge r0 r1 --out results`"},
     cli::AddMergeOptions,
     cli::MergeCommand},
    {"profile",
     "why is it slow: one solve() call under Nsight Compute, its kernels' metrics and a diagnosis",
     Takes::kSharedOptions,
     {"FILE", 1, 1, "judge profile needs a submission file, e.g. `judge profile submissions/06_warp_unroll.cu`"},
     cli::AddProfileOptions,
     cli::ProfileCommand},
    {"list",
     "list the problems (entry point, check, cases); with a name, that problem's testcases",
     Takes::kSharedOptions,
     {"[PROBLEM...]", 0, kAnyNumber, ""},
     nullptr,
     cli::ListCommand},
    {"check-problem",
     "check a problem: its files, sizes, generators, reference, and every sample's expected verdict",
     Takes::kSharedOptions,
     {"NAME", 1, 1, "judge check-problem needs a problem's name, e.g. `judge check-problem vector_add`"},
     cli::AddCheckProblemOptions,
     cli::CheckProblemCommand},
#ifdef JUDGE_WITH_SERVE  // -DJUDGE_WITH_SERVE=OFF builds the judge without the service
    {"serve",
     "run the online judge: an HTTP API and web page students submit to, a durable queue, graders",
     Takes::kSharedOptions,
     {"", 0, 0, ""},
     cli::AddServeOptions,
     cli::ServeCommand},
    {"token",
     "the service's tokens: add NAME [--admin] [--alias A], list, revoke NAME, import ROSTER.csv",
     Takes::kOwnOptions,
     {"ACTION [ARG]", 1, 2, "judge token needs an action: add NAME, list, revoke NAME or import ROSTER.csv"},
     cli::AddTokenOptions,
     cli::TokenCommand},
#endif
    {"version", "print the judge's version", Takes::kOwnOptions, {}, nullptr, cli::VersionCommand},
    // Only the judge starts it, for itself: the one process that ever loads submission code.
    {"__worker", "", Takes::kNothing, {}, nullptr, cli::WorkerCommand},
};

}  // namespace

int main(int argc, char** argv) {
  judge::KeepFreedMemoryForReuse();  // the worker (`judge __worker`) too
  return cli::Main(kCommands, argc, argv);
}

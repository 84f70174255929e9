// SPDX-License-Identifier: MIT
#pragma once
// `judge batch` and `judge merge`: many submissions, one results folder.
//
//   OUT/submissions/<name>-<key>/  report.json (the source of truth), junit.xml, results.json
//                                  (Gradescope), summary.md, report.html, entry.json
//   OUT/plan.json                  every submission of the inputs with its key and shard
//   OUT/batch.json, leaderboard.md, junit.xml, report.html, scores.csv   (the whole batch)
//
// A submission's key hashes everything its result depends on (its bytes, the problem, the
// testcases, the judge's version, the measurement options), so a rerun skips what is already
// graded and regrades what changed. Shards (--shard I/N) grade disjoint slices into per-submission
// folders only; `judge merge` builds the batch files from any number of results folders with the
// same code an unsharded batch uses, so the two cannot disagree. Every shard writes the plan of the
// whole batch before it grades, so a merge knows who must be graded even when a shard never ran.
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "judge/core/run_report.h"
#include "judge/grade/grading_policy.h"
#include "judge/run/run_pipeline.h"

namespace judge {

struct BatchEntry {
  std::string name;  // e.g. "alice/kernel.cu" (EntryNames)
  std::string key;   // sha256 of what the result depends on
  std::string dir;   // its folder under OUT/submissions
  RunReport report;
  bool kept = false;  // graded by an earlier run with the same key, not by this one
};

struct LeaderboardRow {
  int rank = 0;
  bool tied = false;  // its interval overlaps its neighbour's: the order between them is noise
  const BatchEntry* entry = nullptr;
  double median_ms = 0, low_ms = 0, high_ms = 0;  // 95% interval of the median
};

struct BatchProgress {
  size_t done = 0, total = 0, reused = 0;
  std::string current;  // what just finished
  std::string line;     // one line for people
};

struct BatchOptions {
  std::vector<std::string> inputs;  // folders, files or glob patterns
  std::string out_dir = "batch-results";
  int shard_index = 0, shard_count = 1;
  bool force = false;    // regrade even when a result with the same key exists
  int compile_jobs = 0;  // parallel compiles (0: AvailableCpus())
  RunOptions run;        // the template of every run
  GradingPolicy grading;
  std::function<void(const BatchProgress&)> on_progress;
};

// A submission file and the input that led to it.
struct FoundFile {
  std::string path;    // lexically normal, as found: the file that is read and graded
  std::string folder;  // the input folder it was found under; empty when named directly or by a glob
};

// The submission files the inputs name, sorted by path, each once (the first input that finds a
// file is the one it was found under).
Expected<std::vector<FoundFile>> ExpandInputs(const std::vector<std::string>& inputs, DeviceKind device);

// What each file is called in the results (batch.json, leaderboard, scores, its folder): its path
// relative to the input folder it was found under ("alice/kernel.cu" in students/), or for a file
// named directly or by a glob its path as given when relative, else its file name. Names that two
// files would share take on parent folders until they differ. Depends only on the paths, so every
// shard and every rerun names a file alike, and no grading machine's folders show up in the names
// unless they are what tells two files apart.
std::vector<std::string> EntryNames(const std::vector<FoundFile>& files);

// The results call a submission by its name, never by where this machine keeps it: the report's
// path and the compiler's messages would otherwise carry the grading machine's folders (batch, and
// the service, which keeps a student's file under a number). The report's text must be valid UTF-8
// by now (MakeTextValid): the path is found there in that form.
void NameSubmission(RunReport& r, const std::string& raw_path, const std::string& name);

// Shard I of N: every N-th item of the sorted list, starting at I.
template <typename T>
std::vector<T> ShardOf(const std::vector<T>& items, int index, int count) {
  std::vector<T> out;
  for (size_t i = 0; i < items.size(); ++i)
    if (int(i % size_t(count)) == index) out.push_back(items[i]);
  return out;
}
// Parses "I/N" (0 <= I < N <= kMaxShards: more shards than a course has submissions grade nothing).
inline constexpr int kMaxShards = 100000;
Status ParseShard(const std::string& text, int* index, int* count);

// The CPUs this process may run on (its affinity mask: what a scheduler such as Slurm allotted),
// at least 1; the default number of parallel compiles.
int AvailableCpus();

// One submission of the plan: what every shard computes alike from the same inputs and options.
struct PlannedSubmission {
  std::string name, key;  // as its BatchEntry will have them
  int shard = 0, shard_count = 1;
};
inline constexpr char kPlanFile[] = "plan.json";
Json PlanToJson(const std::vector<PlannedSubmission>& plan);
Expected<std::vector<PlannedSubmission>> PlanFromJson(const Json& json, const std::string& file);
// The names `before` plans that `now` does not, in `before`'s order: a narrower run into a results
// folder would drop them from its plan, and a merge would then leave their results out.
std::vector<std::string> DroppedFromPlan(const std::vector<PlannedSubmission>& before,
                                         const std::vector<PlannedSubmission>& now);

// What a merge builds its files from: the graded entries the plan asks for (each planned name with
// its planned key; the newest when graded twice), the planned submissions that have none (not
// graded: their shard failed, was cancelled, or never ran, or graded an earlier version of the
// file), and how many results were left out as not in the plan (other inputs). Without a plan
// (results folders of a judge before plans): every result, the newest per name, none missing.
struct Reconciled {
  std::vector<BatchEntry> entries;
  std::vector<PlannedSubmission> not_graded;
  size_t outside_plan = 0;
  bool planned = false;                     // LoadForMerge: a plan.json was found
  std::vector<std::string> absent_folders;  // LoadForMerge: folders given that do not exist
  std::vector<std::string> unreadable;      // LoadForMerge: results that could not be read (their students: not graded)
};
Reconciled ReconcileWithPlan(const std::optional<std::vector<PlannedSubmission>>& plan, std::vector<BatchEntry> found);

// "not graded: shard 1/4 left no result for this version", for every report.
std::string NotGradedReason(const PlannedSubmission& p);

struct BatchResult {
  std::vector<BatchEntry> entries;   // every entry of this run, kept ones included
  bool batch_files_written = false;  // not for a shard, nor after an interruption
};

// Grades the inputs (this shard's share) and writes per-submission folders; an unsharded batch
// that was not interrupted also writes the batch files.
Expected<BatchResult> RunBatch(const BatchOptions& options);

// Reads the per-submission results of one or more results folders (deduplicated by key).
Expected<std::vector<BatchEntry>> LoadEntries(const std::vector<std::string>& dirs);

// The plan the folders' shards wrote (none: folders of a judge before plans); an error when two
// folders hold different plans (graded from different inputs or options).
Expected<std::optional<std::vector<PlannedSubmission>>> LoadPlan(const std::vector<std::string>& dirs);

// Every result of the folders reconciled with their plan: what `judge merge` writes.
Expected<Reconciled> LoadForMerge(const std::vector<std::string>& dirs);

// Ranks accepted, unflagged entries by the median of their first performance case; an entry
// whose 95% interval overlaps the previous one's shares its rank (marked tied).
std::vector<LeaderboardRow> Leaderboard(const std::vector<BatchEntry>& entries);

// The exit code of batch and merge: 0 when every submission was graded, whatever its verdict (the
// verdicts are in the results); 4 when the judge failed on one (IE); with `strict`, 1 when some
// submission was not accepted. A pod failure policy can thus tell "a student's kernel failed"
// (0 or 1) from "the infrastructure failed" (3 without a GPU, 4).
ExitCode BatchExitCode(const std::vector<BatchEntry>& entries, bool strict);

// The exit code of a merge that found planned submissions without a result: a grade sheet that
// lacks students must stop a scheduler's pipeline (Slurm marks the merge FAILED; the Kubernetes
// merge Job fails), and it outranks every other code but 130 (interrupted).
inline constexpr int kExitNotGraded = int(ExitCode::kIncomplete);
int MergeExitCode(const Reconciled& merged, bool strict);

// batch.json, leaderboard.md, junit.xml, report.html, scores.csv in `out_dir`, every submission of
// `not_graded` listed as not graded in each; and for each of those a Gradescope results.json that
// says so (OUT/submissions/<its folder>/, where its shard writes it when it grades it).
Status WriteBatchFiles(const std::vector<BatchEntry>& entries, const GradingPolicy& grading, const std::string& out_dir,
                       const std::vector<PlannedSubmission>& not_graded = {});
Json BatchToJson(const std::vector<BatchEntry>& entries, const GradingPolicy& grading,
                 const std::vector<PlannedSubmission>& not_graded = {});

// A submission's folder under OUT/submissions: its name made safe, a hash of the name as it is,
// and its key.
std::string EntryFolder(const std::string& name, const std::string& key);
// Its entry.json: which submission the folder holds (what PlanBatch reads to remove stale ones).
Json EntryMetaJson(const std::string& name, const std::string& key);

}  // namespace judge

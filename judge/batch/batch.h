// SPDX-License-Identifier: MIT
#pragma once
// `judge batch` and `judge merge`: many submissions, one results folder.
//
//   OUT/submissions/<name>-<key>/  report.json (the source of truth), junit.xml, results.json
//                                  (Gradescope), summary.md, report.html, entry.json
//   OUT/batch.json, leaderboard.md, junit.xml, report.html, scores.csv   (the whole batch)
//
// A submission's key hashes everything its result depends on (its bytes, the problem, the
// testcases, the judge's version, the measurement options), so a rerun skips what is already
// graded and regrades what changed. Shards (--shard I/N) grade disjoint slices into per-submission
// folders only; `judge merge` builds the batch files from any number of results folders with the
// same code an unsharded batch uses, so the two cannot disagree.
#include <atomic>
#include <functional>
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
  int compile_jobs = 0;  // parallel compiles (0: the CPU's threads)
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

struct BatchResult {
  std::vector<BatchEntry> entries;   // every entry of this run, kept ones included
  bool batch_files_written = false;  // not for a shard, nor after an interruption
};

// Grades the inputs (this shard's share) and writes per-submission folders; an unsharded batch
// that was not interrupted also writes the batch files.
Expected<BatchResult> RunBatch(const BatchOptions& options);

// Reads the per-submission results of one or more results folders (deduplicated by key).
Expected<std::vector<BatchEntry>> LoadEntries(const std::vector<std::string>& dirs);

// Ranks accepted, unflagged entries by the median of their first performance case; an entry
// whose 95% interval overlaps the previous one's shares its rank (marked tied).
std::vector<LeaderboardRow> Leaderboard(const std::vector<BatchEntry>& entries);

// The exit code of batch and merge: 0 when every submission was graded, whatever its verdict (the
// verdicts are in the results); 4 when the judge failed on one (IE); with `strict`, 1 when some
// submission was not accepted. A pod failure policy can thus tell "a student's kernel failed"
// (0 or 1) from "the infrastructure failed" (3 without a GPU, 4).
ExitCode BatchExitCode(const std::vector<BatchEntry>& entries, bool strict);

// batch.json, leaderboard.md, junit.xml, report.html, scores.csv in `out_dir`.
Status WriteBatchFiles(const std::vector<BatchEntry>& entries, const GradingPolicy& grading,
                       const std::string& out_dir);
Json BatchToJson(const std::vector<BatchEntry>& entries, const GradingPolicy& grading);

}  // namespace judge

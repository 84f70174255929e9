// SPDX-License-Identifier: MIT
#include "judge/batch/batch.h"

#include <glob.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "judge/problem/problem.h"
#include "judge/report/reporter.h"
#include "judge/util/fs.h"
#include "judge/util/sha256.h"
#include "judge/util/utf8.h"

namespace judge {
namespace fs = std::filesystem;

namespace {

bool IsSubmission(const fs::path& p, DeviceKind device) {
  std::string ext = p.extension().string();
  return IsSubmissionSource(device, ext);
}

// Everything a result depends on besides the submission: the problem, its testcases, the judge,
// and the options that change what is measured.
Expected<std::string> ContextHash(const RunOptions& o) {
  std::string text = std::string("gpu-judge-batch-v1|") + kJudgeVersion + "|" + o.problem + "|" +
                     std::string(DeviceKindName(o.device)) + "|" + o.arch + "|flush=" + o.flush_mode +
                     "|hot=" + (o.hot ? "1" : "0") + "|timing_processes=" + std::to_string(o.timing_processes) +
                     "|call_timeout=" + std::to_string(o.call_timeout_seconds) +
                     // a result graded without a profile is not one with it (run/profile_run.h)
                     "|profile=" + (o.profile ? "1:" + o.profile_case : std::string("0")) + "|cases=";
  for (const auto& f : o.case_filters) text += f + ",";
  std::string testcases =
      o.testcases_dir.empty() ? (fs::path(o.root) / "testcases" / o.problem).string() : o.testcases_dir;
  for (const std::string& dir : {(fs::path(o.root) / "problems" / o.problem).string(), testcases}) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.is_regular_file()) files.push_back(e.path().string());
    if (ec) return MakeError(ErrorCode::kUsage, "cannot read " + dir + ": " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      auto bytes = ReadFile(f);
      if (!bytes) return bytes.error();
      text += "|" + fs::path(f).filename().string() + ":" + Sha256Hex(*bytes);
    }
  }
  return Sha256Hex(text);
}

size_t PartCount(const fs::path& path) { return size_t(std::distance(path.begin(), path.end())); }

// The last `count` parts of `path`: 2 of "/srv/students/alice/kernel.cu" is "alice/kernel.cu".
// The name is text for the results: in util/utf8's valid form.
std::string LastParts(const fs::path& path, size_t count) {
  std::vector<fs::path> parts(path.begin(), path.end());
  fs::path out;
  for (size_t i = parts.size() - std::min(count, parts.size()); i < parts.size(); ++i) out /= parts[i];
  return ValidUtf8(out.generic_string());
}

}  // namespace

Json EntryMetaJson(const std::string& name, const std::string& key) { return {{"name", name}, {"key", key}}; }

std::string EntryFolder(const std::string& name, const std::string& key) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
  s.erase(0, std::min(s.find_first_not_of("._-"), s.size()));  // "/tmp/x.cu" -> "tmp_x.cu", not "_tmp_x.cu"
  if (s.size() > 80) s = s.substr(s.size() - 80);
  // Names that read alike once made safe ("a b.cc" and "a_b.cc", "Müller/k.cc" and "Möller/k.cc")
  // with the same content (unchanged starter code) would share a folder, and one student would
  // vanish from the results: the name's own hash keeps them apart (found in review).
  return s + "-" + Sha256Hex(name).substr(0, 8) + "-" + key.substr(0, 12);
}

namespace {

// A result appears whole or not at all (resume after a kill).
Status WriteText(const fs::path& path, const std::string& text) { return WriteFileAtomic(path.string(), text); }

// The per-submission files; report.json last: it marks the folder complete.
Status WriteEntry(const BatchEntry& e, const GradingPolicy& grading, const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return MakeError(ErrorCode::kIo, "cannot create " + dir.string() + ": " + ec.message());
  JUDGE_TRY(WriteText(dir / "junit.xml", Render(JunitReporter(), e.report)));
  JUDGE_TRY(WriteText(dir / "results.json", Render(GradescopeReporter(grading), e.report)));
  JUDGE_TRY(WriteText(dir / "summary.md", Render(MarkdownReporter(), e.report)));
  JUDGE_TRY(WriteText(dir / "report.html", Render(HtmlReporter(), e.report)));
  JUDGE_TRY(WriteText(dir / "entry.json", EntryMetaJson(e.name, e.key).dump(2) + "\n"));
  return WriteText(dir / "report.json", ReportToJson(e.report).dump(2) + "\n");
}

struct EntryMeta {
  std::string name, key;
};

Expected<EntryMeta> ReadEntryMeta(const fs::path& dir) {
  const std::string file = (dir / "entry.json").string();
  auto meta = ParseJsonFile(file);
  if (!meta) return meta.error();
  auto name = GetString(*meta, "name", JsonContext(file, ""));
  auto key = GetString(*meta, "key", JsonContext(file, ""));
  if (!name) return name.error();
  if (!key) return key.error();
  return EntryMeta{*name, *key};
}

Expected<BatchEntry> ReadEntry(const fs::path& dir) {
  auto meta = ReadEntryMeta(dir);
  if (!meta) return meta.error();
  auto json = ParseJsonFile((dir / "report.json").string());
  if (!json) return json.error();
  auto report = ReportFromJson(*json);
  if (!report) return MakeError(report.error().code, (dir / "report.json").string() + ": " + report.error().message);
  return BatchEntry{meta->name, meta->key, dir.filename().string(), std::move(*report)};
}

std::string Clock(double seconds) {
  char buf[32];
  int s = int(seconds + 0.5);
  std::snprintf(buf, sizeof buf, "%d:%02d", s / 60, s % 60);
  return buf;
}

}  // namespace

Expected<std::vector<FoundFile>> ExpandInputs(const std::vector<std::string>& inputs, DeviceKind device) {
  std::map<std::string, std::string> files;  // path -> the folder it was found under
  auto add = [&](const fs::path& path, const std::string& folder) {
    files.emplace(path.lexically_normal().string(), folder);
  };
  for (const auto& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      for (auto it = fs::recursive_directory_iterator(in, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec))
        if (it->is_regular_file() && IsSubmission(it->path(), device)) add(it->path(), in);
      continue;
    }
    if (fs::is_regular_file(in, ec)) {
      add(in, "");
      continue;
    }
    glob_t g{};
    int rc = ::glob(in.c_str(), 0, nullptr, &g);
    size_t before = files.size();
    for (size_t i = 0; rc == 0 && i < g.gl_pathc; ++i)
      if (fs::is_regular_file(g.gl_pathv[i], ec)) add(g.gl_pathv[i], "");
    ::globfree(&g);
    if (files.size() == before)
      return MakeError(ErrorCode::kUsage,
                       "nothing to grade in \"" + in +
                           "\" (give folders, files or quoted glob patterns such as 'students/*/kernel.cu')");
  }
  if (files.empty())
    return MakeError(
        ErrorCode::kUsage,
        std::string("no submissions (") + (device == DeviceKind::kHost ? ".cc/.cpp" : ".cu") + " files) in the inputs");
  std::vector<FoundFile> out;
  for (auto& [path, folder] : files) out.push_back({path, folder});
  return out;
}

std::vector<std::string> EntryNames(const std::vector<FoundFile>& files) {
  std::vector<size_t> parts(files.size()), most(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    fs::path path = files[i].path;
    most[i] = PartCount(path);
    if (!files[i].folder.empty())
      parts[i] = PartCount(path.lexically_relative(fs::path(files[i].folder).lexically_normal()));
    else
      parts[i] = path.is_relative() ? most[i] : 1;
    parts[i] = std::clamp<size_t>(parts[i], 1, most[i]);
  }
  // The paths differ, and a name of all its path's parts is that path: lengthening ends with
  // every name distinct.
  for (bool longer = true; longer;) {
    longer = false;
    std::map<std::string, std::vector<size_t>> holders;
    for (size_t i = 0; i < files.size(); ++i) holders[LastParts(files[i].path, parts[i])].push_back(i);
    for (const auto& [name, group] : holders)
      for (size_t i : group)
        if (group.size() > 1 && parts[i] < most[i]) {
          ++parts[i];
          longer = true;
        }
  }
  std::vector<std::string> names;
  std::map<std::string, int> seen;
  for (size_t i = 0; i < files.size(); ++i) {
    names.push_back(LastParts(files[i].path, parts[i]));
    // Paths that differ only in bytes that are not UTF-8 (the results are) are told apart by a count.
    if (int n = ++seen[names.back()]; n > 1) names.back() += " (" + std::to_string(n) + ")";
  }
  return names;
}

int AvailableCpus() {
  // A Slurm or Kubernetes job is allotted CPUs through this mask (cgroups' cpusets show up here
  // too); hardware_concurrency counts every CPU of the node, and that many nvcc processes would
  // share the few the job has.
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

Status ParseShard(const std::string& text, int* index, int* count) {
  // from_chars, not sscanf: a number past int's range is an error here, not undefined behaviour.
  auto number = [](std::string_view s, int* into) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *into);
    return ec == std::errc() && end == s.data() + s.size();
  };
  const size_t slash = text.find('/');
  int i = -1, n = 0;
  if (slash == std::string::npos || !number(std::string_view(text).substr(0, slash), &i) ||
      !number(std::string_view(text).substr(slash + 1), &n) || n < 1 || n > kMaxShards || i < 0 || i >= n)
    return MakeError(ErrorCode::kUsage, "--shard takes I/N with 0 <= I < N <= " + std::to_string(kMaxShards) +
                                            " (e.g. 0/4), not \"" + text + "\"");
  *index = i;
  *count = n;
  return Status::Ok();
}

namespace {

struct Submission {
  std::string path;  // where it is read from
  PlannedSubmission planned;
};

struct Pending {
  BatchEntry entry;  // its report still empty
  std::string path;
};

struct BatchPlan {
  std::vector<BatchEntry> kept;  // graded earlier with the same key
  std::vector<Pending> todo;     // to grade now
};

// Every input file with its name, key and shard: the same list on every shard, so each can write
// the whole plan and a merge can tell who is missing.
Expected<std::vector<Submission>> PlanSubmissions(const BatchOptions& b) {
  auto found = ExpandInputs(b.inputs, b.run.device);
  if (!found) return found.error();
  auto context = ContextHash(b.run);
  if (!context) return context.error();
  std::vector<std::string> names = EntryNames(*found);
  std::vector<Submission> all;
  for (size_t i = 0; i < found->size(); ++i) {
    auto bytes = ReadFile((*found)[i].path);
    if (!bytes) return bytes.error();
    all.push_back(
        {(*found)[i].path,
         {names[i], Sha256Hex(*context + "|" + Sha256Hex(*bytes)), int(i % size_t(b.shard_count)), b.shard_count}});
  }
  return all;
}

// Drops the results of earlier versions of each file and keeps what is still valid.
BatchPlan PlanBatch(const BatchOptions& b, const std::vector<Submission>& files, const fs::path& subs) {
  BatchPlan plan;
  std::error_code ec;
  for (const auto& [path, planned] : files) {
    const std::string& name = planned.name;
    BatchEntry e{name, planned.key, EntryFolder(name, planned.key), {}};
    for (const auto& old : fs::directory_iterator(subs, ec)) {  // results of an earlier version of this file
      std::string n = old.path().filename().string();
      bool same_prefix =
          n != e.dir && n.size() == e.dir.size() && n.compare(0, n.size() - 12, e.dir, 0, e.dir.size() - 12) == 0;
      if (!same_prefix) continue;
      auto meta = ReadEntryMeta(old.path());
      if (meta && meta->name == name) fs::remove_all(old.path(), ec);  // two names may share a folder prefix
    }
    auto kept = b.force ? Expected<BatchEntry>(MakeError(ErrorCode::kIo, "forced")) : ReadEntry(subs / e.dir);
    if (kept && kept->key == e.key && kept->name == name) {
      kept->kept = true;
      plan.kept.push_back(std::move(*kept));
    } else
      plan.todo.push_back({std::move(e), path});
  }
  return plan;
}

std::string ProgressLine(const BatchProgress& p, const BatchEntry& e, const std::string& where, double elapsed,
                         double eta) {
  const CaseResult* perf = e.report.PrimaryPerformanceCase();
  char line[512];
  std::snprintf(line, sizeof line, "[%3zu/%zu] %-40s %-3s %10s  (%s%.1f s)  elapsed %s  ETA %s", p.done, p.total,
                ForTerminal(e.name).c_str(), std::string(VerdictShort(e.report.verdict)).c_str(),
                perf ? FormatMs(perf->FigureMs()).c_str() : "-", where.c_str(), e.report.seconds,
                Clock(elapsed).c_str(), Clock(eta).c_str());
  return line;
}

// Compiles `todo` on a pool of CPU threads while one runner per GPU grades them in order; each
// graded submission is written to its folder and appended to `entries`.
Status GradePending(const BatchOptions& b, const fs::path& subs, std::vector<Pending>& todo,
                    std::vector<BatchEntry>& entries, BatchProgress& progress) {
  const auto start = std::chrono::steady_clock::now();
  auto interrupted = [&] { return b.run.interrupted && b.run.interrupted->load(); };
  auto facts = ProbeDeviceFacts(b.run);
  if (!facts) return facts.error();
  RunOptions base = b.run;
  base.known_device = *facts;
  base.on_case_done = nullptr;
  base.on_stage = nullptr;
  if (!base.memo) base.memo = std::make_shared<ExpectedMemo>(ExpectedMemoBudget(HostMemoryAvailableBytes()));
  const int jobs = b.compile_jobs > 0 ? b.compile_jobs : AvailableCpus();
  const bool host = base.device != DeviceKind::kCuda;
  const int runners = host ? 1 : std::max(1, (*facts)->info.device_count);
  std::vector<std::string> files;
  for (const auto& p : todo) files.push_back(p.path);
  if (b.on_progress) {
    progress.line =
        "grading " + std::to_string(todo.size()) + " submission(s): " + std::to_string(jobs) + " parallel compiles, " +
        (host ? std::string("1 runner (the host test double, no GPU)") : std::to_string(runners) + " GPU runner(s)") +
        (b.shard_count > 1 ? ", shard " + std::to_string(b.shard_index) + "/" + std::to_string(b.shard_count) : "");
    b.on_progress(progress);
  }
  std::mutex mu;
  std::atomic<size_t> next{0};
  std::optional<Error> failure;
  double graded_seconds = 0;
  size_t graded = 0;
  auto pool = CompileAhead(base, files, CompileTarget(base, facts->get()), jobs);  // a problem that does not load
  if (!pool) return pool.error();
  auto run = [&](int gpu) {
    for (size_t i = next++; i < todo.size() && !interrupted(); i = next++) {
      (*pool)->Wait(i);
      RunOptions o = base;
      o.submission = todo[i].path;
      o.gpu = runners > 1 ? gpu : -1;
      auto t0 = std::chrono::steady_clock::now();
      auto report = RunSubmission(o);
      std::lock_guard<std::mutex> lock(mu);
      if (interrupted()) return;  // a partial run is not a result
      Status written = report ? Status::Ok() : Status(report.error());
      BatchEntry& e = todo[i].entry;
      if (written) {
        e.report = std::move(*report);
        NameSubmission(e.report, todo[i].path, e.name);
        written = WriteEntry(e, b.grading, subs / e.dir);
      }
      if (!written) {  // the judge failed: stop grading, keep what is written
        failure = written.error();
        next = todo.size();
        (*pool)->Cancel();
        return;
      }
      graded_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++graded;
      entries.push_back(e);
      progress.done = entries.size();
      progress.current = e.name;
      double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      double eta = graded_seconds / double(graded) * double(todo.size() - graded) / runners;
      progress.line = ProgressLine(progress, e, runners > 1 ? "GPU " + std::to_string(gpu) + ", " : "", elapsed, eta);
      if (b.on_progress) b.on_progress(progress);
    }
  };
  std::vector<std::thread> threads;
  for (int gpu = 0; gpu < runners; ++gpu) threads.emplace_back(run, gpu);
  for (auto& t : threads) t.join();
  if (interrupted()) (*pool)->Cancel();
  if (failure) return *failure;
  return Status::Ok();
}

}  // namespace

void NameSubmission(RunReport& r, const std::string& raw_path, const std::string& name) {
  const std::string path = ValidUtf8(raw_path);
  if (path != name)
    ForEachText(r, [&](std::string& text) {
      for (size_t at = text.find(path); at != std::string::npos; at = text.find(path, at + name.size()))
        text.replace(at, path.size(), name);
    });
  r.submission_path = name;
}

std::vector<std::string> DroppedFromPlan(const std::vector<PlannedSubmission>& before,
                                         const std::vector<PlannedSubmission>& now) {
  std::set<std::string> kept;
  for (const auto& p : now) kept.insert(p.name);
  std::vector<std::string> dropped;
  for (const auto& p : before)
    if (!kept.count(p.name)) dropped.push_back(p.name);
  return dropped;
}

Expected<BatchResult> RunBatch(const BatchOptions& b) {
  auto all = PlanSubmissions(b);
  if (!all) return all.error();
  fs::path subs = fs::path(b.out_dir) / "submissions";
  std::error_code ec;
  fs::create_directories(subs, ec);
  if (ec)
    return MakeError(ErrorCode::kUsage, "cannot create the results folder " + subs.string() + ": " + ec.message());
  // Before grading: a shard cancelled half-way has still told the merge whom it owed.
  std::vector<PlannedSubmission> planned;
  for (const auto& s : *all) planned.push_back(s.planned);
  const std::string plan_file = (fs::path(b.out_dir) / kPlanFile).string();
  if (!b.force && fs::exists(plan_file, ec)) {
    auto json = ParseJsonFile(plan_file);
    auto before = json ? PlanFromJson(*json, plan_file) : Expected<std::vector<PlannedSubmission>>(json.error());
    if (!before) return before.error();
    if (auto dropped = DroppedFromPlan(*before, planned); !dropped.empty()) {
      std::string names;
      for (size_t i = 0; i < dropped.size() && i < 5; ++i) names += (i ? ", " : "") + ForTerminal(dropped[i]);
      if (dropped.size() > 5) names += ", ...";
      return MakeError(ErrorCode::kUsage,
                       plan_file + " plans " + std::to_string(dropped.size()) + " submission(s) this run does not (" +
                           names +
                           "): graded into the same folder, the merge would leave them out. Give this run its own "
                           "--out, or --force to replace the plan (and regrade everything)");
    }
  }
  JUDGE_TRY(WriteFileAtomic(plan_file, PlanToJson(planned).dump(2) + "\n"));
  const std::vector<Submission> files = ShardOf(*all, b.shard_index, b.shard_count);
  BatchPlan plan = PlanBatch(b, files, subs);
  std::vector<BatchEntry> entries = std::move(plan.kept);
  BatchProgress progress{entries.size(), files.size(), entries.size(), "", ""};
  if (b.on_progress && !entries.empty()) {
    progress.line = "kept " + std::to_string(entries.size()) + " result(s) graded earlier (same key; --force regrades)";
    b.on_progress(progress);
  }
  if (!plan.todo.empty()) JUDGE_TRY(GradePending(b, subs, plan.todo, entries, progress));
  std::sort(entries.begin(), entries.end(), [](const BatchEntry& x, const BatchEntry& y) { return x.name < y.name; });
  BatchResult result{std::move(entries), false};
  if (b.shard_count == 1 && !(b.run.interrupted && b.run.interrupted->load())) {
    JUDGE_TRY(WriteBatchFiles(result.entries, b.grading, b.out_dir));
    result.batch_files_written = true;
  }
  return result;
}

namespace {

// Every readable result of the folders; a folder that does not exist is skipped and named in
// `absent` (a shard that never ran has no folder, and the plan still names its submissions).
// `absent` (when given) collects the folders that do not exist; `unreadable` (when given) the
// results that cannot be read, which are then left out instead of failing the whole load.
Expected<std::vector<BatchEntry>> LoadAllEntries(const std::vector<std::string>& dirs, std::vector<std::string>* absent,
                                                 std::vector<std::string>* unreadable = nullptr) {
  std::vector<BatchEntry> out;
  for (const auto& d : dirs) {
    fs::path subs = fs::path(d) / "submissions";
    std::error_code ec;
    if (absent && !fs::exists(d, ec)) {
      absent->push_back(d);
      continue;
    }
    if (!fs::is_directory(subs, ec))
      return MakeError(
          ErrorCode::kUsage,
          d + " is not a batch results folder (no submissions/ inside; give the --out folder of `judge batch`)");
    for (const auto& e : fs::directory_iterator(subs, ec)) {
      if (!fs::exists(e.path() / "report.json")) continue;  // interrupted before it finished, or not graded
      auto entry = ReadEntry(e.path());
      // PlanBatch grades again a result it cannot read.
      const std::string repair = "; re-running the `judge batch` that wrote " + d +
                                 " (same inputs, same --out) grades that submission again and repairs it";
      if (!entry && unreadable) {
        unreadable->push_back(entry.error().message + repair);
        continue;
      }
      if (!entry) return MakeError(entry.error().code, entry.error().message + repair);
      out.push_back(std::move(*entry));
    }
  }
  return out;
}

// Of two results for the same thing (two shards, two folders), the one graded last.
void KeepNewest(std::map<std::string, BatchEntry>& into, const std::string& id, BatchEntry e) {
  auto it = into.find(id);
  if (it == into.end() || it->second.report.started_at < e.report.started_at) into[id] = std::move(e);
}

}  // namespace

Reconciled ReconcileWithPlan(const std::optional<std::vector<PlannedSubmission>>& plan, std::vector<BatchEntry> found) {
  Reconciled out;
  std::map<std::string, BatchEntry> by_id;  // by name without a plan, by name and key with one
  auto id = [&](const std::string& name, const std::string& key) { return plan ? name + '\n' + key : name; };
  for (auto& e : found) {
    std::string at = id(e.name, e.key);
    KeepNewest(by_id, at, std::move(e));
  }
  if (!plan) {
    for (auto& [name, e] : by_id) out.entries.push_back(std::move(e));
    return out;
  }
  for (const auto& p : *plan) {
    auto it = by_id.find(id(p.name, p.key));
    if (it == by_id.end()) {
      out.not_graded.push_back(p);
      continue;
    }
    out.entries.push_back(std::move(it->second));
    by_id.erase(it);
  }
  out.outside_plan = by_id.size();
  std::sort(out.entries.begin(), out.entries.end(),
            [](const BatchEntry& x, const BatchEntry& y) { return x.name < y.name; });
  return out;
}

std::string NotGradedReason(const PlannedSubmission& p) {
  return "not graded: shard " + std::to_string(p.shard) + "/" + std::to_string(p.shard_count) +
         " left no result for this version of the file (it failed, was cancelled or did not run)";
}

Json PlanToJson(const std::vector<PlannedSubmission>& plan) {
  Json list = Json::array();
  for (const auto& p : plan) list.push_back({{"name", p.name}, {"key", p.key}, {"shard", p.shard}});
  return {{"schema", "gpu-judge.plan"},
          {"schema_version", 1},
          {"shard_count", plan.empty() ? 1 : plan.front().shard_count},
          {"submissions", list}};
}

Expected<std::vector<PlannedSubmission>> PlanFromJson(const Json& json, const std::string& file) {
  auto bad = [&](const std::string& what) {
    return MakeError(ErrorCode::kUsage, file + ": " + what +
                                            " (a plan.json written by `judge batch`; running a shard again "
                                            "rewrites it)");
  };
  if (!json.is_object() || json.value("schema", "") != "gpu-judge.plan") return bad("not a plan");
  if (json.value("schema_version", 0) != 1) return bad("an unknown schema_version");
  const Json& count = json.value("shard_count", Json());
  const Json& list = json.value("submissions", Json());
  if (!count.is_number_integer() || count.get<int64_t>() < 1 || count.get<int64_t>() > kMaxShards || !list.is_array())
    return bad("shard_count or submissions missing or out of range");
  std::vector<PlannedSubmission> out;
  for (const auto& s : list) {
    if (!s.is_object() || !s.value("name", Json()).is_string() || !s.value("key", Json()).is_string() ||
        !s.value("shard", Json()).is_number_integer())
      return bad("a submission without name, key or shard");
    int64_t shard = s["shard"].get<int64_t>();
    if (shard < 0 || shard >= count.get<int64_t>()) return bad("a shard out of range");
    out.push_back({s["name"].get<std::string>(), s["key"].get<std::string>(), int(shard), count.get<int>()});
  }
  return out;
}

Expected<std::vector<BatchEntry>> LoadEntries(const std::vector<std::string>& dirs) {
  auto all = LoadAllEntries(dirs, nullptr);
  if (!all) return all.error();
  return ReconcileWithPlan(std::nullopt, std::move(*all)).entries;
}

Expected<std::optional<std::vector<PlannedSubmission>>> LoadPlan(const std::vector<std::string>& dirs) {
  std::optional<std::vector<PlannedSubmission>> plan;
  std::string first;  // the file the plan was read from
  for (const auto& d : dirs) {
    const std::string file = (fs::path(d) / kPlanFile).string();
    std::error_code ec;
    if (!fs::exists(file, ec)) continue;
    auto json = ParseJsonFile(file);
    if (!json) return json.error();
    auto read = PlanFromJson(*json, file);
    if (!read) return read.error();
    if (!plan) {
      plan = std::move(*read);
      first = file;
      continue;
    }
    auto same = [](const PlannedSubmission& a, const PlannedSubmission& b) {
      return a.name == b.name && a.key == b.key && a.shard == b.shard && a.shard_count == b.shard_count;
    };
    if (!std::equal(plan->begin(), plan->end(), read->begin(), read->end(), same))
      return MakeError(ErrorCode::kUsage,
                       first + " and " + file +
                           " plan different batches (other inputs, options, files or shard counts): run every "
                           "shard with the same `judge batch` command, then merge");
  }
  return plan;
}

Expected<Reconciled> LoadForMerge(const std::vector<std::string>& dirs) {
  auto plan = LoadPlan(dirs);
  if (!plan) return plan.error();
  // With a plan, a result that cannot be read leaves its student not graded, named, and the other
  // students' files are still written; without one nobody could say whose it was.
  std::vector<std::string> absent, unreadable;
  auto all = LoadAllEntries(dirs, &absent, *plan ? &unreadable : nullptr);
  if (!all) return all.error();
  if (absent.size() == dirs.size())
    return MakeError(ErrorCode::kUsage,
                     "none of the results folders exists: " + absent.front() + (dirs.size() > 1 ? " ..." : ""));
  if (!absent.empty() && !*plan)
    return MakeError(ErrorCode::kUsage, absent.front() +
                                            " does not exist, and no folder holds a plan.json to tell whom it "
                                            "should have graded");
  Reconciled out = ReconcileWithPlan(*plan, std::move(*all));
  out.planned = plan->has_value();
  out.absent_folders = std::move(absent);
  out.unreadable = std::move(unreadable);
  return out;
}

int MergeExitCode(const Reconciled& merged, bool strict) {
  if (!merged.not_graded.empty()) return kExitNotGraded;
  return int(BatchExitCode(merged.entries, strict));
}

ExitCode BatchExitCode(const std::vector<BatchEntry>& entries, bool strict) {
  bool rejected = false;
  for (const auto& e : entries) {
    if (e.report.verdict == Verdict::kInternalError) return ExitCode::kInternalError;
    rejected |= e.report.verdict != Verdict::kAccepted;
  }
  return strict && rejected ? ExitCode::kRejected : ExitCode::kAccepted;
}

std::vector<LeaderboardRow> Leaderboard(const std::vector<BatchEntry>& entries) {
  std::vector<LeaderboardRow> rows;
  for (const auto& e : entries) {
    if (e.report.verdict != Verdict::kAccepted) continue;
    const CaseResult* perf = e.report.PrimaryPerformanceCase();
    if (!perf || !perf->Ranks()) continue;
    double m = perf->FigureMs(), half = 1.96 * perf->event.noise * m;
    rows.push_back({0, false, &e, m, m - half, m + half});
  }
  std::sort(rows.begin(), rows.end(), [](const LeaderboardRow& a, const LeaderboardRow& b) {
    return a.median_ms != b.median_ms ? a.median_ms < b.median_ms : a.entry->name < b.entry->name;
  });
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].rank = int(i) + 1;
    if (i > 0 && rows[i].low_ms <= rows[i - 1].high_ms) {
      rows[i].rank = rows[i - 1].rank;
      rows[i].tied = rows[i - 1].tied = true;
    }
  }
  return rows;
}

}  // namespace judge

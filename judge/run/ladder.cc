// SPDX-License-Identifier: MIT
#include "judge/run/ladder.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <latch>
#include <mutex>
#include <optional>
#include <thread>

#include <spdlog/spdlog.h>

#include "judge/problem/sample_header.h"
#include "judge/profile/profile.h"
#include "judge/report/reporter.h"
#include "judge/rules/run_verdict.h"
#include "judge/util/fs.h"
#include "judge/util/utf8.h"

namespace judge {
namespace {

struct Column {
  std::string case_name;
  std::string label;  // "N=4,194,304"
};

// The performance cases every rung ran (official sizes only: the unpredictable twins differ per run).
std::vector<Column> Columns(const std::vector<LadderRung>& rungs) {
  std::vector<Column> cols;
  for (const auto& r : rungs)
    for (const auto& c : r.report.cases)
      if (c.kind == CaseKind::kPerformance && !c.IsHiddenTwin() &&
          std::none_of(cols.begin(), cols.end(), [&](const Column& k) { return k.case_name == c.name; }))
        cols.push_back({c.name, FormatScalars(c.scalars)});
  return cols;
}

const CaseResult* Find(const RunReport& r, const std::string& name) {
  for (const auto& c : r.cases)
    if (c.name == name) return &c;
  return nullptr;
}

// A case only checked after the run was rejected has a few untimed calls' figure: not shown.
double Median(const CaseResult* c) {
  return c && c->verdict == Verdict::kAccepted && !OnlyChecked(*c) ? c->FigureMs() : 0;
}

std::string Fixed(double v, const char* fmt) {
  if (v <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// One row of cells per rung; the last column is compared with the previous rung for the speedup.
std::vector<std::vector<std::string>> Cells(const std::vector<LadderRung>& rungs, const std::vector<Column>& cols,
                                            std::vector<std::string>* header) {
  *header = {"version", "verdict"};
  for (const auto& c : cols) header->push_back("median " + c.label);
  const std::string last = cols.empty() ? "" : cols.back().label;
  *header = [&] {
    auto h = *header;
    h.insert(h.end(), {"GB/s " + last, "% of ceiling", "% of peak", "speedup"});
    return h;
  }();
  std::vector<std::vector<std::string>> rows;
  double previous = 0;
  for (const auto& r : rungs) {
    std::vector<std::string> row = {r.name, std::string(VerdictShort(r.report.verdict))};
    for (const auto& c : cols) row.push_back(FormatMs(Median(Find(r.report, c.case_name))));
    const CaseResult* big = cols.empty() ? nullptr : Find(r.report, cols.back().case_name);
    double gbps = big && Median(big) > 0 ? big->gbps : 0;
    double peak = r.report.device ? r.report.device->peak_bandwidth_gbps : 0;
    double ms = Median(big);
    row.push_back(Fixed(gbps, "%.0f"));
    row.push_back(big && gbps > 0 ? Fixed(big->roofline_pct, "%.1f%%") : "-");
    row.push_back(Fixed(peak > 0 ? 100 * gbps / peak : 0, "%.1f%%"));
    row.push_back(previous > 0 && ms > 0 ? Fixed(previous / ms, "%.2fx") : "-");
    if (ms > 0) previous = ms;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

std::vector<std::string> LadderFiles(const std::string& dir, DeviceKind device) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    std::string ext = e.path().extension().string();
    if (IsSubmissionSource(device, ext)) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

int SubmissionsSideBySide(const SideBySideFacts& f) {
  if (f.one_at_a_time || f.submissions <= 1) return 1;
  if (f.requested > 0) return std::min(f.requested, f.submissions);
  int64_t n = std::min<int64_t>({kMaxSideBySide, f.submissions, std::max(1u, f.cores / 4)});
  // A worker's CUDA context and the judge's cache flush take about a GiB of device memory besides.
  const int64_t device_per_run = f.largest_case_device_bytes + (int64_t(1) << 30);
  if (f.device_memory_bytes > 0) n = std::min(n, f.device_memory_bytes / device_per_run);
  if (f.host_available_bytes > 0 && f.largest_case_buffer_bytes > 0)
    n = std::min(n, f.host_available_bytes / (kHostBytesPerDeviceByte * f.largest_case_buffer_bytes));
  return int(std::max<int64_t>(1, n));
}

SideBySideFacts MachineSideBySide(const RunOptions& o, int requested, int submissions) {
  SideBySideFacts f;
  f.requested = requested;
  f.submissions = submissions;
  f.cores = std::thread::hardware_concurrency();
  f.host_available_bytes = HostMemoryAvailableBytes();
  // The memo of expected outputs the runs share may fill its budget of it.
  if (f.host_available_bytes > 0 && o.memo)
    f.host_available_bytes = std::max<int64_t>(1, f.host_available_bytes - o.memo->budget_bytes());
  if (o.device == DeviceKind::kCuda && o.known_device) f.device_memory_bytes = o.known_device->info.memory_bytes;
  f.one_at_a_time = o.profile || !o.sanitize_tools.empty();
  return f;
}

Expected<std::vector<LadderRung>> ClimbLadder(const RunOptions& base, const std::vector<std::string>& files,
                                              int side_by_side) {
  RunOptions shared = base;
  if (!shared.known_device) {
    auto facts = ProbeDeviceFacts(shared);
    if (!facts) return facts.error();
    shared.known_device = *facts;
  }
  // Every rung compiles on its own core while the GPU grades the ones before it.
  auto pool = CompileAhead(shared, files, CompileTarget(shared, shared.known_device.get()),
                           int(std::max(1u, std::thread::hardware_concurrency())));
  if (!pool) return pool.error();
  const size_t jobs = std::clamp<size_t>(size_t(std::max(1, side_by_side)), 1, std::max<size_t>(1, files.size()));
  std::mutex mu;  // the progress callbacks, called from every run's thread
  if (jobs > 1) {
    if (!shared.gpu_turns) shared.gpu_turns = std::make_shared<GpuTurns>();
    if (auto stage = shared.on_stage)
      shared.on_stage = [stage, &mu](const std::string& s) {
        std::lock_guard<std::mutex> lock(mu);
        stage(s);
      };
    if (auto done = shared.on_case_done)
      shared.on_case_done = [done, &mu](size_t i, size_t n, const CaseResult& c) {
        std::lock_guard<std::mutex> lock(mu);
        done(i, n, c);
      };
  }
  std::vector<std::optional<Expected<RunReport>>> reports(files.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  auto stopped = [&] { return failed.load() || (base.interrupted && base.interrupted->load()); };
  // A thread stays until every run is done: the workers it forked (spares another run may take)
  // die with it (PR_SET_PDEATHSIG).
  std::latch finished{std::ptrdiff_t(jobs)};
  auto climb = [&] {
    for (size_t i = next++; i < files.size() && !stopped(); i = next++) {
      (*pool)->Wait(i);
      RunOptions o = shared;
      o.submission = files[i];
      if (o.on_stage) o.on_stage("grading " + files[i]);
      spdlog::debug("grading {}", files[i]);
      reports[i] = RunSubmission(o);
      if (*reports[i]) spdlog::debug("graded {} in {:.3f} s", files[i], (*reports[i])->seconds);
      if (!*reports[i]) failed = true;
    }
    finished.arrive_and_wait();
  };
  // Side by side, the runs start together and would each wait at every large case for its
  // reference: those are prepared ahead, on a quarter of the cores, while the GPU works.
  std::atomic<bool> climbed{false};
  std::jthread warming;
  if (jobs > 1 && shared.memo)
    warming =
        std::jthread([&] { WarmExpectedMemo(shared, std::max(1u, std::thread::hardware_concurrency() / 4), climbed); });
  {
    std::vector<std::jthread> threads;
    for (size_t t = 1; t < jobs; ++t) threads.emplace_back(climb);
    climb();
  }
  climbed = true;
  if (stopped()) (*pool)->Cancel();
  std::vector<LadderRung> rungs;
  for (size_t i = 0; i < files.size() && reports[i]; ++i) {
    if (!*reports[i]) return reports[i]->error();
    auto header = ReadSampleHeader(files[i]);
    rungs.push_back({StemOf(files[i]), std::move(**reports[i]), header ? header->article : std::string()});
  }
  return rungs;
}

// The codes of a profiled rung's findings, in the diagnosis' order.
static std::vector<std::string> FindingCodes(const LadderRung& r) {
  std::vector<std::string> codes;
  for (const auto& p : r.report.profiles)
    for (const auto& f : p.diagnosis.findings)
      if (std::find(codes.begin(), codes.end(), f.code) == codes.end()) codes.push_back(f.code);
  return codes;
}

// --profile: each rung's bottleneck in one line, its other findings, and what changed from the
// rung before (findings gained +, lost -) (docs/PROFILE.md).
static void WriteDiagnoses(const std::vector<LadderRung>& rungs, std::ostream& out, const std::string& bullet) {
  bool any = false;
  for (const auto& r : rungs) any |= !r.report.profiles.empty();
  if (!any) return;
  out << "\nwhy (--profile: one call under Nsight Compute; not part of any time or rank):\n";
  std::vector<std::string> before;
  for (size_t i = 0; i < rungs.size(); ++i) {
    const LadderRung& r = rungs[i];
    for (const auto& p : r.report.profiles) {
      out << bullet << r.name << " (" << p.case_name << "): ";
      if (p.status != profile::ProfileStatus::kProfiled) {
        out << "not profiled (" << profile::ProfileStatusName(p.status) << "): " << ForTerminal(p.message, 300) << "\n";
        continue;
      }
      out << ForTerminal(p.diagnosis.headline, 400);
      std::string others;
      for (size_t f = 1; f < p.diagnosis.findings.size(); ++f) others += " " + p.diagnosis.findings[f].code;
      out << (others.empty() ? "" : "; also:" + others);
      std::vector<std::string> now = FindingCodes(r);
      if (i > 0) {
        std::string changed;
        for (const auto& c : now)
          if (std::find(before.begin(), before.end(), c) == before.end()) changed += " +" + c;
        for (const auto& c : before)
          if (std::find(now.begin(), now.end(), c) == now.end()) changed += " -" + c;
        out << "; from " << rungs[i - 1].name << ":" << (changed.empty() ? " same findings" : changed);
      }
      out << "\n";
      // Under its rung: indented in text, a nested item in Markdown.
      if (!r.article.empty())
        out << (bullet == "- " ? "  - " : bullet + "  ") << "article: " << ForTerminal(r.article, 400) << "\n";
      before = std::move(now);
    }
  }
}

void WriteLadderText(const std::vector<LadderRung>& rungs, std::ostream& out) {
  std::vector<std::string> header;
  auto rows = Cells(rungs, Columns(rungs), &header);
  std::vector<size_t> width(header.size());
  for (size_t i = 0; i < header.size(); ++i) width[i] = header[i].size();
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  auto line = [&](const std::vector<std::string>& cells) {
    for (size_t i = 0; i < cells.size(); ++i) {
      std::string pad(width[i] - cells[i].size(), ' ');
      out << (i ? "  " : "") << (i < 2 ? cells[i] + pad : pad + cells[i]);
    }
    out << "\n";
  };
  line(header);
  for (const auto& row : rows) line(row);
  WriteDiagnoses(rungs, out, "  ");
}

void WriteLadderMarkdown(const std::vector<LadderRung>& rungs, std::ostream& out) {
  std::vector<std::string> header;
  auto rows = Cells(rungs, Columns(rungs), &header);
  const RunReport* first = rungs.empty() ? nullptr : &rungs.front().report;
  out << "# The ladder: every sample, graded by the judge\n\n";
  if (first) {
    out << "- date: " << first->started_at << "\n- judge: " << first->judge_version << "\n";
    if (first->device && first->device->kind == DeviceKind::kCuda)
      out << "- device: " << first->device->name << " (sm_" << first->device->cc_major << first->device->cc_minor
          << "), driver " << (first->device->driver_release.empty() ? "" : first->device->driver_release + " ")
          << "(CUDA " << first->device->driver_version << "), runtime " << first->device->runtime_version << ", peak "
          << Fixed(first->device->peak_bandwidth_gbps, "%.0f") << " GB/s from device attributes\n";
    else if (first->device)
      out << "- device: " << first->device->name << "\n";
    out << "- compiler: " << first->build.compiler << "\n";
    if (first->ceiling_gbps > 0)
      out << "- ceiling: " << Fixed(first->ceiling_gbps, "%.0f") << " GB/s, a streaming read kernel on this GPU ("
          << first->ceiling_source << ")\n";
  }
  out << "- times: median of cold calls (L2 evicted by a read of twice its size before each), CUDA events";
  if (first && first->device && first->device->empty_window_ms > 0)
    out << ", net of the " << FormatMs(first->device->empty_window_ms) << " an empty event window takes";
  out << "; speedup over the previous version at the largest size\n\n";
  auto md = [&](const std::vector<std::string>& cells) {
    out << "|";
    for (const auto& c : cells) out << " " << c << " |";
    out << "\n";
  };
  md(header);
  out << "|";
  for (size_t i = 0; i < header.size(); ++i) out << (i < 2 ? "---|" : "---:|");
  out << "\n";
  for (const auto& row : rows) md(row);
  WriteDiagnoses(rungs, out, "- ");
}

}  // namespace judge

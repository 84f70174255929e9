// SPDX-License-Identifier: MIT
#include "judge/run/check_problem.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>

#include "judge/build/compile_cache.h"
#include "judge/check/reference.h"
#include "judge/device/checksum.h"
#include "judge/device/generate_kernel.h"
#include "judge/problem/sample_header.h"
#include "judge/protocol/messages.h"
#include "judge/report/reporter.h"
#include "judge/rules/case_verdict.h"
#include "judge/run/ladder.h"
#include "judge/testcase/generate.h"
#include "judge/util/fs.h"
#include "judge/util/parallel.h"

namespace judge {
namespace fs = std::filesystem;

namespace {

// What the worker adds around each buffer (judge/worker/harness.cc's guards, 4 KiB + 64 KiB at most).
constexpr int64_t kGuardBytes = 68 << 10;
// A generated input larger than this is not made twice to compare (time; the generator is the same
// code at every size).
constexpr int64_t kMaxComparedElements = int64_t(1) << 27;

std::string GiB(int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", double(bytes) / double(int64_t(1) << 30));
  return buf;
}

bool Checked(const Case& c) { return c.kind != CaseKind::kPerformance && c.kind != CaseKind::kStress; }

ProblemCheckLine Files(const Problem& p, const std::vector<Case>& cases) {
  ProblemCheckLine line{"files", false, ""};
  auto statement = ReadFile(p.statement_path);
  if (!statement) {
    line.detail = "the statement cannot be read: " + statement.error().message;
    return line;
  }
  // A student reads only the statement: it must show the entry point as the judge declares it.
  if (statement->find(p.Declaration()) == std::string::npos) {
    line.detail = p.statement_path + " does not show the entry point as the judge declares it: " + p.Declaration();
    return line;
  }
  int performance = 0;
  for (const auto& c : cases) performance += c.kind == CaseKind::kPerformance;
  line.ok = performance > 0;
  line.detail = "problem.json, statement.md and " + std::to_string(cases.size()) + " testcases load (" +
                std::to_string(performance) + " performance)";
  if (!line.ok) line.detail += ": a problem needs at least one performance case";
  return line;
}

ProblemCheckLine Sizes(const Problem& p, const std::vector<Case>& cases) {
  ProblemCheckLine line{"sizes", true, ""};
  const Case* largest = nullptr;
  int64_t most = 0;
  for (const auto& c : cases) {
    int64_t bytes = DeviceBytesOfCase(p, c).total();
    if (bytes > most) {
      most = bytes;
      largest = &c;
    }
  }
  if (!largest) {
    line.detail = "no cases";
    return line;
  }
  line.ok = most <= kSmallGpuBytes;
  line.detail = "the largest case, " + largest->name + " (" + FormatScalars(largest->scalars) + "), takes " +
                GiB(most) +
                " of device memory in the worker (inputs in their variants and the fresh buffer, outputs, guards, " +
                "outputs held for the judge)" + (line.ok ? ", within " : ", more than ") + GiB(kSmallGpuBytes);
  return line;
}

// Each generated input made twice: by the parallel generator, and element by element from the
// counter arithmetic the device runs (or the parallel generator again, for the normal
// distribution, which stays on the host): the same bytes, or the generator depends on more than
// its seed and the element's index.
// Cases checked at once by the generator and reference checks: each already spreads its large
// passes over the cores, and the reference itself runs on one, so a few cases side by side fill
// the machine without holding more than a few cases' inputs and expected values.
unsigned CasesAtOnce() { return std::clamp(std::thread::hardware_concurrency() / 4, 1u, 4u); }

ProblemCheckLine Generators(const Problem& p, const std::vector<Case>& cases) {
  ProblemCheckLine line{"generators", true, ""};
  struct Outcome {
    int compared = 0;
    std::string differs;  // the first input whose two makings differ
  };
  std::vector<Outcome> outcomes(cases.size());
  ParallelFor(cases.size(), CasesAtOnce(), [&](size_t k) {
    const Case& c = cases[k];
    for (const Param& param : p.params) {
      if (!param.HoldsInputData() || !c.inputs.at(param.name).generate) continue;
      const InputSpec& spec = c.inputs.at(param.name);
      int64_t n = p.ElementCount(param, c.scalars).value();
      if (n > kMaxComparedElements) continue;
      HostBytes a = MaterializeInput(spec, param.dtype, n);
      uint64_t again = 0;
      if (auto fill = CounterFillFor(*spec.generate, param.dtype)) {
        HostBytes head = MaterializeHead(*spec.generate, param.dtype, n);
        const size_t words = head.size() / 4;
        for (int64_t i = 0; i < n; ++i) {
          uint32_t word = CounterWord(*fill, uint64_t(i));
          if (size_t(i) < words) std::memcpy(&word, head.data() + 4 * i, 4);
          again += MixWord(word, uint64_t(i));
        }
      } else {
        HostBytes b = MaterializeInput(spec, param.dtype, n);
        again = HostChecksum(b.data(), b.size());
      }
      ++outcomes[k].compared;
      if (HostChecksum(a.data(), a.size()) != again) {
        outcomes[k].differs = "case " + c.name + ", input " + param.name + ": two makings of the same generator differ";
        return;
      }
    }
  });
  int compared = 0;
  for (const Outcome& o : outcomes) {
    compared += o.compared;
    if (!o.differs.empty()) {
      line.ok = false;
      line.detail = o.differs;
      return line;
    }
  }
  line.detail = std::to_string(compared) + " generated inputs made twice (host threads, and the device's arithmetic " +
                "element by element): the same bytes";
  return line;
}

// How far a's values are from the long double build's, as a share of each element's tolerance.
double WorstShare(const Problem& p, const ExpectedOutputs& a, const ExpectedOutputs& precise) {
  double worst = 0;
  for (size_t o = 0; o < a.values.size(); ++o)
    for (size_t i = 0; i < a.values[o].size(); ++i) {
      const double e = precise.values[o][i], err = std::fabs(a.values[o][i] - e);
      double tol = 0;
      if (p.check.kind == CheckKind::kTolerance) {
        tol = p.check.tolerance.atol + p.check.tolerance.rtol * std::fabs(e);
        if (const auto* b = precise.BoundsOf(o)) tol += (*b)[i];
      } else if (p.check.kind == CheckKind::kReference) {
        tol = 1e-9 * std::max(1.0, std::fabs(e));  // the checker's own business; the values must agree
      }
      const double share = tol > 0 ? err / tol : (err == 0 ? 0 : INFINITY);
      worst = std::max(worst, share);
    }
  return worst;
}

ProblemCheckLine References(const Problem& p, const std::vector<Case>& cases, const std::string& cache_dir) {
  ProblemCheckLine line{"reference", false, ""};
  CompileCache cache(cache_dir);
  auto plain = Reference::Load(p, cache);
  if (!plain) {
    line.detail = plain.error().message;
    return line;
  }
  auto precise = Reference::Load(p, cache, ReferencePrecision::kLongDouble);
  if (!precise) {
    line.detail = "the long double build: " + precise.error().message;
    return line;
  }
  struct Outcome {
    bool checked = false;
    std::string failed;  // why the reference fails this check on the case
    double share = 0;
  };
  std::vector<Outcome> outcomes(cases.size());
  ParallelFor(cases.size(), CasesAtOnce(), [&](size_t k) {
    const Case& c = cases[k];
    if (!Checked(c)) return;
    auto first = plain->Compute(p, c), second = plain->Compute(p, c), ld = precise->Compute(p, c);
    for (const auto* r : {&first, &second, &ld})
      if (!*r) {
        outcomes[k].failed = r->error().message;
        return;
      }
    if (first->values != second->values || first->bounds != second->bounds) {
      outcomes[k].failed = "case " + c.name + ": two runs of the reference on the same inputs differ";
      return;
    }
    outcomes[k] = {true, "", WorstShare(p, *first, *ld)};
  });
  double worst = 0;
  std::string worst_case;
  int checked = 0;
  for (size_t k = 0; k < cases.size(); ++k) {
    const Outcome& o = outcomes[k];
    if (!o.failed.empty()) {
      line.detail = o.failed;
      return line;
    }
    if (!o.checked) continue;
    ++checked;
    if (o.share >= worst) {
      worst = o.share;
      worst_case = cases[k].name;
    }
  }
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "deterministic on %d cases; its largest difference from its long double build is %.3g%% of the "
                "tolerance (case %s; at most %.0f%% allowed)",
                checked, 100 * worst, worst_case.c_str(), 100 * kReferenceErrorShare);
  line.detail = buf;
  line.ok = worst <= kReferenceErrorShare;
  return line;
}

bool Mentions(const RunReport& r, const std::string& text) {
  if (r.message.find(text) != std::string::npos || r.build.log.find(text) != std::string::npos) return true;
  for (const auto& c : r.cases)
    if (c.detail.find(text) != std::string::npos) return true;
  return false;
}

std::vector<ProblemCheckLine> Samples(const RunOptions& base, const Problem& p, const std::vector<std::string>& files,
                                      int side_by_side, std::vector<LadderRung>* ladder) {
  if (files.empty())
    return {{"samples", false,
             "no samples in " + (fs::path(base.root) / p.samples_dir).string() +
                 (base.device == DeviceKind::kHost ? "/host" : "")}};
  auto rungs = ClimbLadder(base, files, side_by_side);
  if (!rungs) return {{"samples", false, rungs.error().message}};
  std::vector<ProblemCheckLine> lines;
  for (size_t i = 0; i < rungs->size(); ++i) {
    const RunReport& r = (*rungs)[i].report;
    auto header = ReadSampleHeader(files[i]);
    SampleHeader h = header ? *header : SampleHeader{};
    const std::string expect = h.expect.empty() ? "AC" : h.expect;
    const std::string got(VerdictShort(r.verdict));
    ProblemCheckLine line{"sample " + fs::path(files[i]).filename().string(), got == expect, ""};
    line.detail = got + " (expected " + expect + ")";
    if (line.ok && !h.expect_detail.empty() && !Mentions(r, h.expect_detail)) {
      line.ok = false;
      line.detail += ", but no detail mentions \"" + h.expect_detail + "\"";
    }
    if (!h.problem.empty() && h.problem != p.name) {
      line.ok = false;
      line.detail += "; its header names problem " + h.problem;
    }
    if (!line.ok)
      for (const auto& c : r.cases)
        if (c.verdict != Verdict::kAccepted && !c.detail.empty()) {
          line.detail += " - " + c.name + ": " + c.detail.substr(0, 300);
          break;
        }
    line.detail += ", " + FormatMs(r.seconds * 1e3);
    lines.push_back(line);
  }
  // An interrupted climb (Ctrl-C, a scheduler's timeout) stops before the last samples: a check
  // that never saw them must not read as holding.
  if (rungs->size() < files.size()) {
    std::string missed;
    for (size_t i = rungs->size(); i < files.size(); ++i)
      missed += (missed.empty() ? "" : ", ") + fs::path(files[i]).filename().string();
    lines.push_back(
        {"samples", false, std::to_string(files.size() - rungs->size()) + " not checked (interrupted): " + missed});
  }
  *ladder = std::move(*rungs);
  return lines;
}

}  // namespace

CaseDeviceBytes DeviceBytesOfCase(const Problem& problem, const Case& c) {
  bool generated = !c.inputs.empty();
  for (const auto& [name, spec] : c.inputs) generated &= spec.generate.has_value();
  const int64_t copies = generated ? problem.input_variants + 1 : 1;  // variants and the fresh buffer
  CaseDeviceBytes total;
  int64_t input_bytes = 0, output_bytes = 0;
  for (const Param& p : problem.params) {
    if (!p.is_buffer) continue;
    const int64_t bytes = problem.ElementCount(p, c.scalars).value() * int64_t(DTypeSize(p.dtype));
    if (p.HoldsInputData()) total.buffers += copies * (bytes + kGuardBytes);
    if (p.SubmissionMayWrite()) total.buffers += bytes + kGuardBytes;  // the working buffer solve() gets
    if (p.HoldsInputData()) input_bytes += bytes;
    if (p.IsChecked()) output_bytes += bytes;
  }
  if (FirstOutputsWaitOnDevice(uint64_t(output_bytes))) total.held_outputs += output_bytes;
  // A timed case with fresh inputs (at most: every generated one) keeps drawn calls' large outputs
  // in device slots.
  if (generated && c.IsPerformance()) {
    auto work = problem.WorkAt(c.scalars);
    if (auto plan = PlanFreshFetches(input_bytes, uint64_t(output_bytes), work ? work->flops : 0,
                                     problem.performance_timing.min_samples, problem.limits.host_memory_mb))
      total.held_outputs += int64_t(plan->cap) * output_bytes;
  }
  return total;
}

bool ProblemCheckReport::ok() const {
  return !lines.empty() && std::all_of(lines.begin(), lines.end(), [](const auto& l) { return l.ok; });
}

std::vector<std::string> SampleFiles(const std::string& root, const Problem& problem, DeviceKind device) {
  fs::path dir = fs::path(root) / problem.samples_dir;
  if (device == DeviceKind::kHost) dir /= "host";
  return LadderFiles(dir.string(), device);
}

Expected<std::vector<std::string>> SelectSamples(const std::vector<std::string>& files,
                                                 const std::vector<std::string>& names) {
  auto named = [&](const std::string& file, const std::string& name) {
    const fs::path path(file);
    return path.filename().string() == name || path.stem().string() == name;
  };
  for (const auto& name : names) {
    if (std::any_of(files.begin(), files.end(), [&](const std::string& f) { return named(f, name); })) continue;
    std::string there;
    for (const auto& f : files) there += (there.empty() ? "" : ", ") + fs::path(f).filename().string();
    return MakeError(ErrorCode::kUsage, "--samples names \"" + name + "\", which is not a sample of this problem (" +
                                            (there.empty() ? std::string("it has none") : "its samples: " + there) +
                                            ")");
  }
  std::vector<std::string> chosen;
  for (const auto& f : files)
    if (std::any_of(names.begin(), names.end(), [&](const std::string& n) { return named(f, n); })) chosen.push_back(f);
  return chosen;
}

Expected<ProblemCheckReport> CheckProblem(const RunOptions& base,
                                          const std::function<void(const ProblemCheckLine&)>& progress,
                                          const std::vector<std::string>& only, int side_by_side) {
  auto problem = LoadProblem((fs::path(base.root) / "problems").string(), base.problem);
  if (!problem) return problem.error();
  // A misspelt --samples name is said before anything is judged.
  const std::vector<std::string> all = SampleFiles(base.root, *problem, base.device);
  std::vector<std::string> files = all;
  if (!only.empty()) {
    auto chosen = SelectSamples(all, only);
    if (!chosen) return chosen.error();
    files = std::move(*chosen);
  }
  RunOptions samples = base;
  // No GPU is said before anything is checked (exit 3, as for `judge run`), not as a failed sample.
  if (!samples.known_device) {
    auto facts = ProbeDeviceFacts(samples);
    if (!facts) return facts.error();
    samples.known_device = *facts;
  }
  std::string dir =
      base.testcases_dir.empty() ? (fs::path(base.root) / "testcases" / base.problem).string() : base.testcases_dir;
  auto cases = LoadTestcaseDir(dir, *problem);
  if (!cases) return cases.error();
  ProblemCheckReport report;
  report.problem = problem->name;
  auto add = [&](ProblemCheckLine line) {
    if (progress) progress(line);
    report.lines.push_back(std::move(line));
  };
  add(Files(*problem, *cases));
  add(Sizes(*problem, *cases));
  // On the host double (CI's two cores) the generator and reference checks, like the samples, take
  // the cases up to kHostCaseBytes: the same code at every size, and minutes saved.
  std::vector<Case> checked = *cases;
  if (base.device == DeviceKind::kHost)
    std::erase_if(checked, [&](const Case& c) {
      auto bytes = problem->MinimumBytes(c.scalars);
      return !bytes || *bytes > kHostCaseBytes;
    });
  // The judge's own time on a problem (inputs made twice, the reference built and run twice and in
  // long double) is said beside each check: on a large 2-D problem it is most of a cold check.
  auto timed = [&](auto check) {
    const auto start = std::chrono::steady_clock::now();
    ProblemCheckLine line = check();
    line.detail +=
        " (" + FormatMs(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count()) +
        ")";
    add(std::move(line));
  };
  timed([&] { return Generators(*problem, checked); });
  timed([&] { return References(*problem, checked, base.cache_dir); });
  // The host double measures nothing a performance case is for, at a CPU's pace: its samples are
  // held to their verdicts on the cases that check correctness, up to a size a CPU judges in
  // moments (--cases overrides the kinds).
  if (samples.device == DeviceKind::kHost) {
    if (samples.case_filters.empty()) samples.case_filters = {"example", "functional", "edge"};
    samples.max_case_bytes = kHostCaseBytes;
  }
  SideBySideFacts facts = MachineSideBySide(samples, side_by_side, int(files.size()));
  for (const auto& c : CasesOfRun(samples, *problem, *cases)) {
    const CaseDeviceBytes bytes = DeviceBytesOfCase(*problem, c);
    facts.largest_case_device_bytes = std::max(facts.largest_case_device_bytes, bytes.total());
    facts.largest_case_buffer_bytes = std::max(facts.largest_case_buffer_bytes, bytes.buffers);
  }
  const int jobs = SubmissionsSideBySide(facts);
  if (samples.on_stage && jobs > 1)
    samples.on_stage("judging the samples " + std::to_string(jobs) + " at a time (their timed cases one at a time)");
  for (auto& line : Samples(samples, *problem, files, jobs, &report.samples)) add(std::move(line));
  std::string names;
  for (const auto& f : all)
    if (std::find(files.begin(), files.end(), f) == files.end()) {
      report.left_out.push_back(fs::path(f).filename().string());
      names += (names.empty() ? "" : ", ") + report.left_out.back();
    }
  if (!names.empty())
    add({"samples", true, std::to_string(report.left_out.size()) + " left out by --samples, not checked: " + names});
  return report;
}

}  // namespace judge

// SPDX-License-Identifier: MIT
#include "judge/core/run_report.h"

#include "judge/util/utf8.h"

namespace judge {

void ForEachText(RunReport& r, const std::function<void(std::string&)>& visit) {
  for (std::string* s : {&r.judge_version, &r.started_at, &r.submission_path, &r.submission_sha256, &r.problem,
                         &r.ceiling_source, &r.flush_mode, &r.message})
    visit(*s);
  if (r.device)
    for (std::string* s :
         {&r.device->name, &r.device->driver_version, &r.device->driver_release, &r.device->runtime_version})
      visit(*s);
  BuildInfo& b = r.build;
  for (std::string* s : {&b.compiler, &b.target, &b.log, &b.library_path, &b.cache_key}) visit(*s);
  for (auto& f : b.flags) visit(f);
  for (auto& c : r.cases) {
    for (std::string* s : {&c.name, &c.note, &c.detail, &c.worker_stdout, &c.worker_stderr}) visit(*s);
    for (auto& f : c.flags) visit(f);
  }
  for (auto& p : r.protections)
    for (std::string* s : {&p.name, &p.detail}) visit(*s);
  for (auto& s : r.sanitizers)
    for (std::string* t : {&s.tool, &s.summary, &s.findings}) visit(*t);
  for (auto& p : r.profiles) {
    for (std::string* s : {&p.case_name, &p.message, &p.diagnosis.headline}) visit(*s);
    for (auto& k : p.kernels) visit(k.name);
    for (auto& f : p.diagnosis.findings)
      for (std::string* s : {&f.code, &f.kernel, &f.message, &f.next_step}) visit(*s);
  }
  for (auto& w : r.warnings) visit(w);
}

void MakeTextValid(RunReport& report) {
  ForEachText(report, [](std::string& s) {
    if (!IsValidUtf8(s)) s = ValidUtf8(s);
  });
}

}  // namespace judge

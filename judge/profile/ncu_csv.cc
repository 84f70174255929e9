// SPDX-License-Identifier: MIT
#include "judge/profile/ncu_csv.h"

#include <cmath>
#include <cstdlib>
#include <map>

#include "judge/util/utf8.h"

namespace judge::profile {
namespace {

constexpr size_t kMaxMessages = 20;                        // ncu's own error and warning lines kept
constexpr size_t kMaxMessageBytes = 400;                   // each cut after this
constexpr int64_t kMaxLaunchDimension = int64_t(1) << 40;  // more blocks than any GPU launches

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A plain decimal number, "1,234.5" allowed; nothing else (no hex, inf or nan, which strtod takes).
std::optional<double> ParseNumber(std::string_view s) {
  s = Trim(s);
  std::string digits;
  for (char c : s) {
    if (c == ',') continue;  // a thousands separator
    if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) return std::nullopt;
    digits += c;
  }
  if (digits.empty() || digits.size() > 64) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Seconds in a time unit, long ("usecond", as older Nsight Compute printed) or short ("us", as the
// H200's ncu 2025 prints "ns"); 0 when `unit` is not a time.
double SecondsIn(std::string_view unit) {
  if (EndsWith(unit, "second"))
    unit = unit.substr(0, unit.size() - 6);
  else if (EndsWith(unit, "s") && unit.size() <= 2)
    unit.remove_suffix(1);
  else
    return 0;
  return unit.empty() ? 1 : unit == "m" ? 1e-3 : unit == "u" ? 1e-6 : unit == "n" ? 1e-9 : 0;
}

// The factor from one side of a unit ("Mbyte", "us", "KB") to the judge's base: bytes and counts
// as they are, times in nanoseconds. `per`: the unit is a denominator (".../usecond"), so the factor
// is to "per second" instead. The H200's ncu prints base units (ns, byte, byte/s, hz); a scaled
// form (another version, or a config file asking for it) must not be off by a thousand.
double UnitScale(std::string_view unit, bool per) {
  if (double seconds = SecondsIn(unit); seconds > 0) return per ? 1 / seconds : seconds * 1e9;
  // Nsight's base units are lower case (byte, cycle, inst, sector, warp, hz ...): an upper-case
  // first letter before one, or before "B" (KB, MB), is an SI prefix (decimal: a Kbyte is 1000 bytes).
  if (unit.size() >= 2 && ((unit[1] >= 'a' && unit[1] <= 'z') || unit.substr(1) == "B")) {
    switch (unit[0]) {
      case 'K': return per ? 1e-3 : 1e3;
      case 'M': return per ? 1e-6 : 1e6;
      case 'G': return per ? 1e-9 : 1e9;
      case 'T': return per ? 1e-12 : 1e12;
      case 'P': return per ? 1e-15 : 1e15;
      default: break;
    }
  }
  return 1;
}

std::string Bounded(std::string_view line) { return ForTerminal(Trim(line), kMaxMessageBytes); }

bool IsDigits(std::string_view s) {
  if (s.empty() || s.size() > 18) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

}  // namespace

std::optional<double> ParseMetricValue(std::string_view cell, std::string_view unit) {
  auto v = ParseNumber(cell);
  if (!v) return std::nullopt;
  unit = Trim(unit);
  if (unit.empty() || unit == "%") return *v;
  size_t slash = unit.find('/');
  if (slash == std::string_view::npos) return *v * UnitScale(unit, false);
  return *v * UnitScale(unit.substr(0, slash), false) * UnitScale(unit.substr(slash + 1), true);
}

int64_t ParseLaunchShape(std::string_view cell) {
  cell = Trim(cell);
  if (!cell.empty() && cell.front() == '(') cell.remove_prefix(1);
  if (!cell.empty() && cell.back() == ')') cell.remove_suffix(1);
  int64_t product = 1;
  int dims = 0;
  while (!cell.empty()) {
    size_t comma = cell.find(',');
    std::string_view part = Trim(cell.substr(0, comma));
    if (!IsDigits(part) || ++dims > 3) return 0;
    int64_t d = std::strtoll(std::string(part).c_str(), nullptr, 10);
    if (d <= 0 || d > kMaxLaunchDimension || product > kMaxLaunchDimension / d) return 0;
    product *= d;
    if (comma == std::string_view::npos) break;
    cell.remove_prefix(comma + 1);
  }
  return dims > 0 ? product : 0;
}

std::vector<std::string> ReadCsvRecord(std::string_view text, size_t& pos) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  while (pos < text.size()) {
    char c = text[pos++];
    if (quoted) {
      if (c == '"' && pos < text.size() && text[pos] == '"') {
        cells.back() += '"';
        ++pos;
      } else if (c == '"') {
        quoted = false;
      } else if (c == '\n') {
        // An unclosed quote ends with its line: kernel names hold no newline, and a stray quote in
        // text a submission printed must not swallow the rows after it.
        break;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else if (c == '\n') {
      break;
    } else if (c != '\r') {
      cells.back() += c;
    }
  }
  return cells;
}

bool SaysCountersRestricted(std::string_view text) {
  // Only ncu's own lines (==ERROR== ...) count: a kernel's name is the submission's to choose.
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    std::string_view line = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    if (line.starts_with("==") && line.find("ERR_NVGPUCTRPERM") != std::string_view::npos) return true;
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return false;
}

std::optional<bool> CountersAdminOnly(std::string_view nvidia_params) {
  constexpr std::string_view kKey = "RmProfilingAdminOnly:";
  size_t at = nvidia_params.find(kKey);
  if (at == std::string_view::npos || (at > 0 && nvidia_params[at - 1] != '\n')) return std::nullopt;
  std::string_view rest = Trim(nvidia_params.substr(at + kKey.size(), nvidia_params.find('\n', at) - at - kKey.size()));
  if (rest == "1") return true;
  if (rest == "0") return false;
  return std::nullopt;
}

std::string CountersRestrictedAdvice() {
  return "the GPU's performance counters are restricted to administrators (ERR_NVGPUCTRPERM), so Nsight "
         "Compute measured nothing; the verdict is unaffected. To allow them: run the judge as root (its "
         "profiled worker then keeps root where the driver restricts the counters; "
         "JUDGE_SANITIZER_SKIP=network_namespace,unprivileged forces it), or have an administrator set the driver "
         "option `options nvidia "
         "NVreg_RestrictProfilingToAdminUsers=0` (in /etc/modprobe.d/, then reload the driver or reboot). On "
         "cloud GPUs and course clusters only the administrator can; see docs/PROFILE.md";
}

NcuOutput ParseNcuCsv(std::string_view text) {
  NcuOutput out;
  if (text.size() > kMaxNcuOutputBytes) text = text.substr(0, kMaxNcuOutputBytes);
  out.counters_restricted = SaysCountersRestricted(text);

  std::vector<std::string> header, units;
  std::map<std::string, size_t, std::less<>> column;  // header name -> index
  bool have_units = false;
  size_t pos = 0;
  while (pos < text.size() && out.kernels.size() < kMaxKernels) {
    size_t line_end = text.find('\n', pos);
    std::string_view line = text.substr(pos, line_end == std::string_view::npos ? text.size() - pos : line_end - pos);
    if (StartsWith(line, "==")) {
      if (line.find("==ERROR==") != std::string_view::npos && out.errors.size() < kMaxMessages)
        out.errors.push_back(Bounded(line));
      else if (line.find("==WARNING==") != std::string_view::npos && out.warnings.size() < kMaxMessages)
        out.warnings.push_back(Bounded(line));
      pos = line_end == std::string_view::npos ? text.size() : line_end + 1;
      continue;
    }
    if (!StartsWith(Trim(line), "\"")) {  // not a CSV row: something the program printed
      pos = line_end == std::string_view::npos ? text.size() : line_end + 1;
      continue;
    }
    std::vector<std::string> cells = ReadCsvRecord(text, pos);
    if (header.empty()) {
      if (cells.size() < 2 || cells[0] != "ID") continue;
      bool names_kernels = false;
      for (const auto& c : cells) names_kernels |= c == "Kernel Name";
      if (!names_kernels) continue;
      header = std::move(cells);
      for (size_t i = 0; i < header.size(); ++i) column.emplace(header[i], i);
      out.has_header = true;
      continue;
    }
    if (cells.size() != header.size()) continue;  // a torn or foreign row
    if (!IsDigits(Trim(cells[0]))) {
      if (!have_units) {
        units = std::move(cells);
        have_units = true;
      }
      continue;
    }
    KernelMetrics k;
    k.id = int(std::strtol(cells[0].c_str(), nullptr, 10) % 1000000000);
    auto cell = [&](std::string_view name) -> const std::string* {
      auto it = column.find(name);
      return it == column.end() ? nullptr : &cells[it->second];
    };
    if (auto* name = cell("Kernel Name")) k.name = ForTerminal(*name, kMaxKernelNameBytes);
    if (auto* grid = cell("Grid Size")) k.grid_size = ParseLaunchShape(*grid);
    if (auto* block = cell("Block Size")) k.block_size = ParseLaunchShape(*block);
    for (const MetricColumn& m : MetricTable()) {
      auto it = column.find(m.name);
      if (it == column.end()) continue;
      std::string_view unit = have_units ? std::string_view(units[it->second]) : std::string_view();
      Metric v = ParseMetricValue(cells[it->second], unit);
      if (m.field)
        k.*m.field = v;
      else
        k.stalls[size_t(m.stall)] = v;
    }
    out.kernels.push_back(std::move(k));
  }
  return out;
}

}  // namespace judge::profile

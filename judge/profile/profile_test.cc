// SPDX-License-Identifier: MIT
// The ncu CSV reader on its edge cases (hand-written: units, n/a, garbage), and the diagnosis rules
// on metric sets Nsight Compute recorded on an H200 (testdata/h200/, scripts/bench/ncu-record.sh).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "judge/profile/metrics.h"
#include "judge/profile/ncu_csv.h"
#include "judge/profile/rules.h"
#include "judge/util/fs.h"

namespace judge::profile {
namespace {

// --- the metric table -----------------------------------------------------------------------

TEST(ProfileMetrics, TableNamesEachMetricOnceAndFillsEveryField) {
  std::set<std::string_view> names;
  for (const MetricColumn& m : MetricTable()) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name;
    EXPECT_NE(m.field == nullptr, m.stall < 0) << m.name;
  }
  EXPECT_EQ(MetricsArgument().find(' '), std::string::npos);
  EXPECT_NE(MetricsArgument().find("gpu__time_duration.sum,"), std::string::npos);
  EXPECT_NE(MetricsArgument().find("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"),
            std::string::npos);
  int stalls = 0;
  for (const MetricColumn& m : MetricTable()) stalls += m.stall >= 0;
  EXPECT_EQ(stalls, int(kStallCount));
}

TEST(ProfileMetrics, DerivedFiguresNeedTheirInputs) {
  KernelMetrics k;
  EXPECT_FALSE(k.DramGbps());
  k.dram_read_bytes = 16e6;
  EXPECT_FALSE(k.DramBytes()) << "half a sum is not a measurement";
  k.dram_write_bytes = 0;
  k.duration_ns = 4000;
  EXPECT_DOUBLE_EQ(*k.DramGbps(), 4000);
  EXPECT_EQ(k.OccupancyLimiter(), Limiter::kUnknown);
  k.limit_registers = 4;
  k.limit_shared_mem = 2;
  k.limit_warps = 2;
  EXPECT_EQ(k.OccupancyLimiter(), Limiter::kSharedMemory);  // the least; the first of a tie
  k.stalls[size_t(Stall::kSelected)] = 9;
  k.stalls[size_t(Stall::kBarrier)] = 3;
  k.stalls[size_t(Stall::kLongScoreboard)] = 2;
  EXPECT_EQ(*k.TopStall(), Stall::kBarrier) << "selected is issuing, not a stall";
}

// --- the CSV reader: edge cases -------------------------------------------------------------

TEST(NcuCsv, UnitsAreNormalized) {
  EXPECT_DOUBLE_EQ(*ParseMetricValue("1,234", "byte"), 1234);
  EXPECT_DOUBLE_EQ(*ParseMetricValue("1.5", "Kbyte"), 1500);
  EXPECT_DOUBLE_EQ(*ParseMetricValue("2", "Mbyte"), 2e6);
  EXPECT_DOUBLE_EQ(*ParseMetricValue("3", "Gbyte"), 3e9);
  EXPECT_DOUBLE_EQ(*ParseMetricValue("17.5", "usecond"), 17500);  // times in ns
  EXPECT_DOUBLE_EQ(*ParseMetricValue("1.25", "msecond"), 1.25e6);
  EXPECT_DOUBLE_EQ(*ParseMetricValue("640", "nsecond"), 640);
  EXPECT_DOUBLE_EQ(*ParseMetricValue("2", "second"), 2e9);
  EXPECT_DOUBLE_EQ(*ParseMetricValue("4.5", "Tbyte/second"), 4.5e12);
  EXPECT_DOUBLE_EQ(*ParseMetricValue("3", "byte/usecond"), 3e6);
  EXPECT_DOUBLE_EQ(*ParseMetricValue("87.5", "%"), 87.5);
  EXPECT_DOUBLE_EQ(*ParseMetricValue("12", "Kinst"), 12000);
  EXPECT_DOUBLE_EQ(*ParseMetricValue("31.9", "register/thread"), 31.9);
  EXPECT_DOUBLE_EQ(*ParseMetricValue("7", ""), 7);
}

TEST(NcuCsv, AnythingButANumberIsMissing) {
  for (const char* cell : {"n/a", "", " ", "nan", "inf", "0x10", "1e999", "12abc", "(!) 3", "--"})
    EXPECT_FALSE(ParseMetricValue(cell, "byte")) << cell;
}

TEST(NcuCsv, LaunchShapes) {
  EXPECT_EQ(ParseLaunchShape("(8192, 1, 1)"), 8192);
  EXPECT_EQ(ParseLaunchShape("(16, 16, 2)"), 512);
  EXPECT_EQ(ParseLaunchShape("256"), 256);
  for (const char* bad :
       {"", "()", "(a, 1, 1)", "(1, 2, 3, 4)", "(-1, 1, 1)", "(0, 1, 1)", "(99999999999, 99999999999, 1)"})
    EXPECT_EQ(ParseLaunchShape(bad), 0) << bad;
}

TEST(NcuCsv, QuotedCells) {
  size_t pos = 0;
  std::string_view text = "\"a,b\",\"say \"\"hi\"\"\",plain\n\"next\"";
  auto cells = ReadCsvRecord(text, pos);
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[0], "a,b");
  EXPECT_EQ(cells[1], "say \"hi\"");
  EXPECT_EQ(cells[2], "plain");
  EXPECT_EQ(ReadCsvRecord(text, pos)[0], "next");
}

constexpr const char* kSmall =
    "==PROF== Connected to process 123 (/usr/bin/judge)\n"
    "==WARNING== Found outstanding GPU clock reset, trying to revert...\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"dram__bytes_read.sum\",\"gpu__time_duration.sum\",\"launch__grid_size\","
    "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"some__metric_we_do_not_ask_for\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"Mbyte\",\"usecond\",\"\",\"%\",\"\"\n"
    "\"0\",\"123\",\"judge\",\"h\",\"reduce(const float *, float *, int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(8192, 1, "
    "1)\",\"0\",\"9.0\",\"16.78\",\"17.95\",\"8,192\",\"n/a\",\"1\"\n"
    "==PROF== Disconnected from process 123\n";

TEST(NcuCsv, ReadsHeaderUnitsAndRows) {
  NcuOutput out = ParseNcuCsv(kSmall);
  EXPECT_TRUE(out.has_header);
  EXPECT_FALSE(out.counters_restricted);
  ASSERT_EQ(out.warnings.size(), 1u);
  ASSERT_EQ(out.kernels.size(), 1u);
  const KernelMetrics& k = out.kernels[0];
  EXPECT_EQ(k.name, "reduce(const float *, float *, int)");
  EXPECT_EQ(k.grid_size, 8192);
  EXPECT_EQ(k.block_size, 256);
  EXPECT_DOUBLE_EQ(*k.dram_read_bytes, 16.78e6);
  EXPECT_DOUBLE_EQ(*k.duration_ns, 17950);
  EXPECT_DOUBLE_EQ(*k.launch_grid_size, 8192);
  EXPECT_FALSE(k.sm_pct) << "n/a is missing, not zero";
  EXPECT_FALSE(k.dram_write_bytes) << "a column ncu did not print is missing";
}

TEST(NcuCsv, CountersRestricted) {
  NcuOutput out = ParseNcuCsv(
      "==PROF== Connected to process 9 (/x/judge)\n"
      "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on "
      "the target device 0. For instructions on enabling permissions and to get more information see "
      "https://developer.nvidia.com/ERR_NVGPUCTRPERM\n"
      "==PROF== Disconnected from process 9\n==WARNING== No kernels were profiled.\n");
  EXPECT_TRUE(out.counters_restricted);
  EXPECT_FALSE(out.has_header);
  EXPECT_TRUE(out.kernels.empty());
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_NE(CountersRestrictedAdvice().find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos);
}

TEST(NcuCsv, GarbageNeverCrashesAndIsBounded) {
  std::string text = kSmall;
  // A kernel name made by a hostile submission: control characters, invalid UTF-8, a stray quote.
  std::string hostile = "\"1\",\"123\",\"judge\",\"h\",\"k\x1b[2J\xff\xfe" + std::string(5000, 'x') +
                        "\",\"1\",\"7\",\"(1, 1, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\",\"1\",\"2\",\"1\",\"3\",\"1\"\n";
  text += hostile;
  text += "\"2\",\"unclosed quote swallows nothing\n";
  text += "\"3\",\"too\",\"few\"\n";
  text += std::string("\0\0\"\"\"\n,,,,\n\"ID\"\n", 16);
  NcuOutput out = ParseNcuCsv(text);
  ASSERT_EQ(out.kernels.size(), 2u);
  EXPECT_LE(out.kernels[1].name.size(), kMaxKernelNameBytes + 16);
  EXPECT_EQ(out.kernels[1].name.find('\x1b'), std::string::npos);
  for (size_t cut = 0; cut < std::string_view(kSmall).size(); cut += 7)
    ParseNcuCsv(std::string_view(kSmall).substr(0, cut));
  EXPECT_TRUE(ParseNcuCsv("").kernels.empty());
  EXPECT_TRUE(ParseNcuCsv("\"ID\",\"Kernel Name\"\n\"x\",\"y\"\n\"1\"\n").kernels.empty());
}

}  // namespace
}  // namespace judge::profile

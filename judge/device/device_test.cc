// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <cstring>

#include "judge/device/checksum.h"
#include "judge/device/clock_probe.h"
#include "judge/device/device.h"
#include "judge/testcase/generate.h"
#include "judge/testcase/generator_specs_for_tests.h"

namespace judge {
namespace {

TEST(ClockProbe, AverageClockBetweenTwoStampsOfOneSm) {
  EXPECT_DOUBLE_EQ(ClockMhzBetween({1000, 5000, 3}, {1000 + 19800, 15000, 3}), 1980);  // 19800 cycles in 10 us
  EXPECT_EQ(ClockMhzBetween({1000, 5000, 3}, {20000, 15000, 4}), 0);  // different SMs: counters not comparable
  EXPECT_EQ(ClockMhzBetween({1000, 5000, 3}, {20000, 5000, 3}), 0);   // no time passed
}

// The device path of generation (CounterFill, run here by the host double) must give the bytes of
// the host generator the judge computes its expectations from.
TEST(CounterFill, DeviceDoubleGeneratesTheHostGeneratorsBytes) {
  auto device = MakeHostDevice();
  for (const char* dist : {"uniform", "uniform_int", "constant", "arange"}) {
    for (DType dtype : {DType::kFloat32, DType::kInt32}) {
      GeneratorSpec g = testing::EveryFieldSpec(dist, 77);
      g.head = {1e6, -1e6};
      auto fill = CounterFillFor(g, dtype);
      ASSERT_TRUE(fill.has_value()) << dist;
      const int64_t n = 10000;
      HostBytes expected = MaterializeInput(InputSpec{std::nullopt, g}, dtype, n);
      std::vector<uint8_t> got(expected.size());
      uint64_t generated_sum = 0;
      ASSERT_TRUE(device->Generate(*fill, got.data(), n, &generated_sum).value());
      EXPECT_EQ(generated_sum, HostChecksum(got.data(), got.size())) << "the sum of what was written";
      HostBytes head = MaterializeHead(g, dtype, n);
      ASSERT_EQ(head.size(), 2 * DTypeSize(dtype));
      std::memcpy(got.data(), head.data(), head.size());
      EXPECT_EQ(std::memcmp(got.data(), expected.data(), expected.size()), 0) << dist << " " << DTypeName(dtype);
    }
  }
}

TEST(CounterFill, NormalStaysOnTheHost) {
  GeneratorSpec g;
  g.dist = "normal";
  EXPECT_FALSE(CounterFillFor(g, DType::kFloat32).has_value());  // log and cos round differently on a GPU
}

}  // namespace
}  // namespace judge

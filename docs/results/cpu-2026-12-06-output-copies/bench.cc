// JudgeOutputs + CheckCall on one vector_add-sized case: two checked calls of N floats, as a timed
// case holds them (call 0 and the last), against float64 expected values. Built against each
// tree's judge_core (the same source: the checker lambda takes either signature).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "judge/problem/problem.h"
#include "judge/rules/case_verdict.h"
#include "judge/util/uninitialized.h"

int main(int argc, char** argv) {  // JUDGE_PROBLEMS: -D, the problems/ folder
  judge::KeepFreedMemoryForReuse();
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 27;
  const size_t n = size_t(1) << log2n;
  auto problem = judge::LoadProblem(JUDGE_PROBLEMS, "vector_add");
  if (!problem) { std::fprintf(stderr, "%s\n", problem.error().message.c_str()); return 1; }
  judge::ExpectedOutputs expected;
  expected.values.emplace_back(n);
  for (size_t i = 0; i < n; ++i) expected.values[0][i] = double(i % 1000) * 0.5;
  std::string outputs(2 * n * sizeof(float), '\0');
  for (size_t i = 0; i < 2 * n; ++i) { float f = float(double((i % n) % 1000) * 0.5); std::memcpy(&outputs[4 * i], &f, 4); }
  judge::CaseReport rep;
  rep.calls.resize(30);
  rep.calls[0].kind = judge::CallKind::kCheck;
  rep.output_calls = {0, 29};
  rep.output_bytes_per_call = n * sizeof(float);
  for (int round = 0; round < 6; ++round) {
    auto t = std::chrono::steady_clock::now();
    auto j = judge::JudgeOutputs(1, rep, outputs, [&](int, const auto& bytes) { return judge::CheckCall(*problem, expected, bytes); });
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    std::printf("N=2^%d round %d: JudgeOutputs %.3f s (verdict %d, %d calls checked)\n", log2n, round, s, int(j.verdict), j.calls_checked);
  }
}

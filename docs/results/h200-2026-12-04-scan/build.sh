#!/usr/bin/env bash
# Builds bin/scan-bench: 04 (and 05 when it exists) as separate translation units renamed by -D,
# linked with the harness. Extra arguments go to the harness's nvcc (e.g. -DVARIANT_SET=2).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
FLAGS="-O3 -arch=sm_90 -std=c++17"
mkdir -p "$HERE/bin"
$NVCC $FLAGS -Xptxas -v -c -Dsolve=solve_04 "$ROOT/submissions/prefix_sum/04_pipelined_lookback.cu" -o "$HERE/bin/s04.o" 2>"$HERE/bin/build-04.log"
OBJS="$HERE/bin/s04.o"
EXTRA=""
# The candidate sample (candidate-05.cu, later copied to submissions/prefix_sum/) as solve_05, and the
# same file with two predecessors per lane as solve_05b.
if [ -f "$HERE/candidate-05.cu" ]; then
  $NVCC $FLAGS -Xptxas -v -c -Dsolve=solve_05 "$HERE/candidate-05.cu" -o "$HERE/bin/s05.o" 2>"$HERE/bin/build-05.log"
  sed 's/^constexpr int kLookback = 1;/constexpr int kLookback = 2;/' "$HERE/candidate-05.cu" >"$HERE/bin/candidate-05b.cu"
  $NVCC $FLAGS -Xptxas -v -c -Dsolve=solve_05b "$HERE/bin/candidate-05b.cu" -o "$HERE/bin/s05b.o" 2>"$HERE/bin/build-05b.log"
  OBJS="$OBJS $HERE/bin/s05.o $HERE/bin/s05b.o"
  EXTRA="-DHAVE_05"
fi
# shellcheck disable=SC2086
$NVCC $FLAGS -Xptxas -v $EXTRA "$@" -o "$HERE/bin/scan-bench" "$HERE/scan-bench.cu" $OBJS 2>"$HERE/bin/build.log"
grep -E "registers|spill" "$HERE"/bin/build*.log | sort | uniq -c | sort -rn | head -n 40 >"$HERE/bin/ptxas-summary.txt" || true
echo "built $HERE/bin/scan-bench"

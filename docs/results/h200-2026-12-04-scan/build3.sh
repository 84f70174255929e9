#!/usr/bin/env bash
# Run 3 build (2026-12-04): bin/scan-bench with VARIANT_SET=3.
# - 04 and 05 exactly as in submissions/ (04_baseline, 05_sample), and copies of both with
#   SCAN_BENCH_PROBE (probe.h) inserted before `++epoch;`: the carveout set to 0 or 100 and the
#   occupancy printed; nothing else differs.
# - C_*: candidate-05c.cu (05 plus kMinBlocks and kCarveout constants) with its constants changed by
#   sed, so that whichever wins can go into the sample as exactly the code that ran.
# - the template variants of variants3.inc (scan-kernels.cuh).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
B="$HERE/bin"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
FLAGS="-O3 -arch=sm_90 -std=c++17"
S04="$ROOT/submissions/prefix_sum/04_pipelined_lookback.cu"
S05="$ROOT/submissions/prefix_sum/05_lookback_warp.cu"
mkdir -p "$B"
rm -f "$B"/v_*.o "$B"/v_*.cu "$B"/v_*.log
: >"$B/c-decls.inc"
: >"$B/c-entries.inc"
OBJS=""
pids=""

# add NAME SOURCE [nvcc args...]: one translation unit, solve renamed to solve_NAME.
add() {
  local name=$1 src=$2
  shift 2
  echo "extern \"C\" void solve_$name(const float*, float*, int);" >>"$B/c-decls.inc"
  echo "{\"$name\", solve_$name, \"$(basename "$src")\"}," >>"$B/c-entries.inc"
  OBJS="$OBJS $B/v_$name.o"
  $NVCC $FLAGS -Xptxas -v -c -Dsolve=solve_$name "$@" "$src" -o "$B/v_$name.o" 2>"$B/v_$name.log" &
  pids="$pids $!"
  if [ "$(echo $pids | wc -w)" -ge "${JOBS:-2}" ]; then
    for p in $pids; do wait "$p"; done
    pids=""
  fi
}

# probe NAME SOURCE CARVE: the sample with SCAN_BENCH_PROBE inserted before `++epoch;`.
probe() {
  local name=$1 src=$2 carve=$3
  [ "$(grep -c '^  ++epoch;$' "$src")" = 1 ] || { echo "no unique ++epoch in $src"; exit 1; }
  sed 's/^  ++epoch;$/  SCAN_BENCH_PROBE(ScanTiles, kThreads);\n  ++epoch;/' "$src" >"$B/v_$name.cu"
  add "$name" "$B/v_$name.cu" -include "$HERE/probe.h" -DPROBE_CARVE="$carve" -DPROBE_NAME="\"$name\""
}

# cand DW ITEMS PREFETCH MINBLOCKS CARVE: candidate-05c.cu with these constants.
cand() {
  local dw=$1 it=$2 pf=$3 mb=$4 cv=$5
  local name="C_dw${dw}_i${it}_pf${pf}_b${mb}"
  [ "$cv" = -1 ] || name="${name}_c${cv}"
  sed -e "s/^constexpr int kDataWarps = 8;/constexpr int kDataWarps = $dw;/" \
      -e "s/^constexpr int kItems = 32; /constexpr int kItems = $it; /" \
      -e "s/^constexpr int kPrefetchTiles = 128; /constexpr int kPrefetchTiles = $pf; /" \
      -e "s/^constexpr int kMinBlocks = 4; /constexpr int kMinBlocks = $mb; /" \
      -e "s/^constexpr int kCarveout = -1; /constexpr int kCarveout = $cv; /" \
      "$HERE/candidate-05c.cu" >"$B/v_$name.cu"
  for want in "kDataWarps = $dw;" "kItems = $it;" "kPrefetchTiles = $pf;" "kMinBlocks = $mb;" "kCarveout = $cv;"; do
    grep -q "^constexpr int $want" "$B/v_$name.cu" || { echo "sed missed $want in $name"; exit 1; }
  done
  add "$name" "$B/v_$name.cu"
}

add 04_baseline "$S04"
probe 04_c0 "$S04" 0
probe 04_c100 "$S04" 100
add 05_sample "$S05"
probe 05_sample_c100 "$S05" 100
probe 05_sample_c0 "$S05" 0
cand 8 32 128 4 -1   # the sample's configuration
cand 8 32 128 4 0
cand 8 32 64 4 -1
cand 8 32 256 4 -1
cand 8 24 160 5 -1
cand 8 24 160 6 -1
cand 8 16 256 7 -1
cand 6 32 160 5 -1
cand 4 32 256 8 -1
cand 4 48 160 6 -1
cand 12 16 160 4 -1
cand 12 24 112 3 -1
cand 8 48 96 3 -1
for p in $pids; do wait "$p"; done

# shellcheck disable=SC2086
$NVCC $FLAGS -Xptxas -v -DVARIANT_SET=3 -DSCAN_REPORT_OCCUPANCY -I"$B" "$@" -o "$B/scan-bench" "$HERE/scan-bench.cu" $OBJS \
  2>"$B/build.log"
{
  for f in "$B"/v_*.log; do
    n=$(basename "$f" .log)
    echo "${n#v_}: $(grep -E 'registers' "$f" | sed 's/.*Used/Used/' | tr '\n' ' ') $(grep -E 'spill' "$f" | sed 's/^ *//' | tr '\n' ' ')"
  done
  echo "scan-bench.cu (template variants):"
  grep -E "registers|spill" "$B/build.log" | sort | uniq -c | sort -rn
} >"$B/ptxas-summary.txt"
echo "built $B/scan-bench"

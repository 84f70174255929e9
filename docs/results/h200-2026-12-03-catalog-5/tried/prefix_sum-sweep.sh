#!/usr/bin/env bash
# Builds knob variants of 05_persistent_lookback.cu (plus 04 as the baseline) with bench.cu, runs
# each once on the GPU, one log per variant, and writes OUT/summary.txt.
#   bash .scratch/prefix/sweep.sh OUTDIR        (from anywhere; needs nvcc and bash only)
set -u
OUT=${1:?usage: sweep.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SAMPLE="$ROOT/submissions/prefix_sum/05_persistent_lookback.cu"
BASELINE="$ROOT/submissions/prefix_sum/04_pipelined_lookback.cu"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
RUN_TIMEOUT=${RUN_TIMEOUT:-60}   # seconds per binary: a deadlocked variant must not eat the budget
BUDGET=${BUDGET:-210}            # seconds: skip the remaining runs past this
JOBS=${JOBS:-16}                 # parallel nvcc builds
mkdir -p "$OUT/bin"
START=$SECONDS

# name | -D flags (defaults: PS_THREADS=256 PS_ITEMS=32 PS_STAGES=3 PS_STATUS_STRIDE=16
#                  PS_LOOKBACK=4 PS_BLOCKS_PER_SM=0 PS_PREFETCH=0 PS_BACKOFF_NS=0)
VARIANTS=(
  "05_base|"
  "05_lb1|-DPS_LOOKBACK=1"
  "05_lb2|-DPS_LOOKBACK=2"
  "05_lb8|-DPS_LOOKBACK=8"
  "05_t4k_s4|-DPS_ITEMS=16 -DPS_STAGES=4"
  "05_t4k_s3_lb8|-DPS_ITEMS=16 -DPS_STAGES=3 -DPS_LOOKBACK=8"
  "05_512x16|-DPS_THREADS=512 -DPS_ITEMS=16"
  "05_stride4|-DPS_STATUS_STRIDE=4"
  "05_prefetch1|-DPS_PREFETCH=1"
  "05_backoff100|-DPS_BACKOFF_NS=100"
  "05_1persm_s6|-DPS_BLOCKS_PER_SM=1 -DPS_STAGES=6"
  "05_fallback|-DPS_FORCE_FALLBACK=1"
)

echo "building ${#VARIANTS[@]} variants + baseline with $NVCC"
pids=()
for v in "${VARIANTS[@]}"; do
  name=${v%%|*}
  flags=${v#*|}
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  # shellcheck disable=SC2086
  ( "$NVCC" -O3 -arch=sm_90 -Xptxas -v $flags "$HERE/bench.cu" "$SAMPLE" -o "$OUT/bin/$name" \
      >"$OUT/$name.build.log" 2>&1 ) &
  pids+=($!)
done
( "$NVCC" -O3 -arch=sm_90 -Xptxas -v "$HERE/bench.cu" "$BASELINE" -o "$OUT/bin/04_baseline" \
    >"$OUT/04_baseline.build.log" 2>&1 ) &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done
echo "built in $((SECONDS - START)) s"

# Registers / spills of the vector kernel (the template instance with true) from ptxas -v.
regs_of() {
  awk '/Compiling entry function/ { v = ($0 ~ /ILb1E/ || $0 !~ /ILb/) } v && /Used [0-9]+ registers/ {
         for (i = 1; i <= NF; ++i) if ($i == "Used") r = $(i + 1) } v && /spill stores/ { s = $5 }
       END { if (r != "") printf "%s regs, %s B spill", r, (s == "" ? "?" : s) }' "$1"
}

SUMMARY="$OUT/summary.txt"
{
  echo "prefix_sum sweep  $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
  echo "columns: label correctness  2^24 median/min us  2^26 median/min us  GB/s (8N bytes / median)  % of 4539 GB/s | ptxas"
} >"$SUMMARY"

run_one() {  # name [extra args]
  local name=$1
  shift
  if [ ! -x "$OUT/bin/$name" ]; then
    echo "$name  BUILD FAILED (see $name.build.log)" >>"$SUMMARY"
    return
  fi
  if [ $((SECONDS - START)) -gt "$BUDGET" ]; then
    echo "$name  SKIPPED (past the ${BUDGET}s budget)" >>"$SUMMARY"
    return
  fi
  local t0=$SECONDS
  timeout "$RUN_TIMEOUT" "$OUT/bin/$name" "$name" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  local line
  line=$(grep '^RESULT' "$OUT/$name.log" | sed 's/^RESULT //')
  if [ -z "$line" ]; then
    if [ $rc -eq 124 ]; then line="$name  TIMEOUT after ${RUN_TIMEOUT}s (hang?)"; else line="$name  NO RESULT rc=$rc"; fi
    line="$line; last log line: $(tail -n 1 "$OUT/$name.log")"
  fi
  echo "$line | $(regs_of "$OUT/$name.build.log") | $((SECONDS - t0)) s" >>"$SUMMARY"
  echo "$name done ($((SECONDS - t0)) s)"
}

run_one 04_baseline --memcpy
for v in "${VARIANTS[@]}"; do run_one "${v%%|*}"; done
grep -h '^time memcpy' "$OUT/04_baseline.log" >>"$SUMMARY" 2>/dev/null
grep -h 'FAIL' "$OUT"/*.log >/dev/null 2>&1 && echo "some checks FAILED: grep FAIL $OUT/*.log" >>"$SUMMARY"
echo "total $((SECONDS - START)) s" >>"$SUMMARY"
cat "$SUMMARY"

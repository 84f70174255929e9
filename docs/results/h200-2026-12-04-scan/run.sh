#!/usr/bin/env bash
# Runs bin/scan-bench on the GPU, log under OUTDIR; a variant that hangs is skipped on a rerun.
#   bash run.sh OUTDIR [harness args]
set -u
OUT=${1:?usage: run.sh OUTDIR [args]}
shift
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv >"$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
if ! "$HERE/bin/scan-bench" --probe >/dev/null 2>&1; then
  echo "prebuilt binary does not run here: rebuilding"
  bash "$HERE/${BUILD_SCRIPT:-build.sh}" ${BUILD_ARGS:-} || exit 1
fi
cp "$HERE/bin/ptxas-summary.txt" "$OUT/" 2>/dev/null
skip=""
for attempt in 1 2 3 4; do
  "$HERE/bin/scan-bench" --skip "${skip:-none}" "$@" 2>&1 | tee -a "$OUT/log.txt"
  rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 3 ]; then
    h=$(grep '^HANG' "$OUT/log.txt" | tail -n 1 | awk '{print $2}')
    skip="$skip${skip:+,}$h"
    echo "rerun without: $skip" | tee -a "$OUT/log.txt"
    continue
  fi
  echo "exit $rc" | tee -a "$OUT/log.txt"
  break
done

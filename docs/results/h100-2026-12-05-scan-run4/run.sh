#!/usr/bin/env bash
# Run 4 on the device, from the repository root:
#   bash docs/results/h100-2026-12-05-scan-run4/run.sh OUTDIR [harness args, e.g. --reps 201]
# Uses the prebuilt bin/scan-bench (carry docs/results/h100-2026-12-05-scan-run4/bin); rebuilds with 16 jobs
# only if that binary does not run there. A variant that hangs or faults (HANG or FAULT in the log,
# exit 3) is skipped on a rerun; the whole script stops at DEADLINE_S seconds (default 75) whatever
# happens.
# Writes OUTDIR/gpu.txt, log.txt, table.md, ptxas-summary.txt, identity.txt, sass.txt.gz.
set -u
OUT=${1:?usage: run.sh OUTDIR [args]}
shift
HERE=$(cd "$(dirname "$0")" && pwd)
DEADLINE_S=${DEADLINE_S:-75}
T0=$(date +%s)
left() { echo $((DEADLINE_S - ($(date +%s) - T0))); }
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv >"$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
if ! "$HERE/bin/scan-bench" --probe >/dev/null 2>&1; then
  echo "prebuilt binary missing or does not run here: rebuilding (JOBS=16)" | tee -a "$OUT/log.txt"
  JOBS=${JOBS:-16} IDENTITY=0 timeout "$(left)" bash "$HERE/build.sh" 2>&1 | tee -a "$OUT/log.txt"
  "$HERE/bin/scan-bench" --probe >/dev/null 2>&1 || { echo "build failed or no GPU" | tee -a "$OUT/log.txt"; exit 1; }
fi
cp "$HERE/bin/ptxas-summary.txt" "$OUT/" 2>/dev/null
cp "$HERE/bin/identity.txt" "$OUT/" 2>/dev/null
skip=""
rc=1
for attempt in 1 2 3 4; do
  budget=$(left)
  if [ "$budget" -le 5 ]; then
    echo "deadline: no time left for attempt $attempt" | tee -a "$OUT/log.txt"
    break
  fi
  timeout -s KILL "$budget" "$HERE/bin/scan-bench" --skip "${skip:-none}" "$@" 2>&1 | tee -a "$OUT/log.txt"
  rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 3 ]; then
    h=$(grep -E '^(HANG|FAULT) ' "$OUT/log.txt" | tail -n 1 | awk '{print $2}')
    skip="$skip${skip:+,}$h"
    echo "rerun without: $skip" | tee -a "$OUT/log.txt"
    continue
  fi
  [ "$rc" -eq 137 ] && echo "killed at the deadline (${DEADLINE_S} s)" | tee -a "$OUT/log.txt"
  echo "exit $rc" | tee -a "$OUT/log.txt"
  break
done
sed -n '/^| variant |/,$p' "$OUT/log.txt" >"$OUT/table.md"
# The machine code of every variant, for reading afterwards (cuobjdump is on the device image).
if [ "$(left)" -gt 5 ] && command -v cuobjdump >/dev/null 2>&1; then
  timeout "$(left)" cuobjdump -sass "$HERE/bin/scan-bench" 2>&1 | gzip >"$OUT/sass.txt.gz"
fi
echo "run.sh: $(($(date +%s) - T0)) s in all"
exit "$rc"

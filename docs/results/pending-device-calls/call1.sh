#!/usr/bin/env bash
# Prepared in session 20 (no device came; never run). One device call, from a copy of the tree: the two pending kernel sweeps, one after the
# other, then `judge check-problem --side-by-side 0 -v` per problem (session 19's call4.sh: build,
# samples compiled, each problem with its ladder and -v timeline) in the budget left.
# Usage: OUT=... PROBLEMS="..." TOTAL=560 bash call1.sh. Writes $OUT/calls.txt as it goes.
set -u
out=${OUT:?}; t0=$(date +%s)
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${SKIP_SWEEPS:-}" ]; then
  DEADLINE_S=80 timeout -s KILL 110 bash docs/results/h100-2026-12-05-scan-run4/run.sh "$out/scan" > "$out/scan-run.txt" 2>&1
  echo "scan sweep: exit $? at $(( $(date +%s) - t0 )) s" >> "$out/calls.txt"
  timeout -s KILL 170 bash docs/results/h100-2026-12-05-softmax-cluster-ring/run.sh "$out/softmax" > "$out/softmax-run.txt" 2>&1
  echo "softmax sweep: exit $? at $(( $(date +%s) - t0 )) s" >> "$out/calls.txt"
fi
mkdir -p "$out/check"
OUT="$out/check" BUDGET=$(( ${TOTAL:-560} - ($(date +%s) - t0) )) \
  bash "$here/../h200-2026-12-04-judge-time-2/call4.sh" > "$out/check-run.txt" 2>&1
echo "check-problem: exit $? at $(( $(date +%s) - t0 )) s" >> "$out/calls.txt"

#!/usr/bin/env bash
# Session 21's last device call: session 19's call4.sh (each problem's `judge check-problem
# --side-by-side 0 -v`, with its ladder and timeline) for PROBLEMS, in the order given, in BUDGET
# seconds. Its files are written under /tmp and packed into $OUT/all.tar.gz every 15 s, so that
# whatever is done comes back even if the call is cut short (and under the tool's file count).
set -u
out=${OUT:?}; work=/tmp/call5; mkdir -p "$work"
here=$(cd "$(dirname "$0")" && pwd)
OUT="$work" bash "$here/../h200-2026-12-04-judge-time-2/call4.sh" > "$work/call4-run.txt" 2>&1 &
pid=$!
pack() { cp "$work/summary.txt" "$out/" 2>/dev/null; tar -C "$work" -czf "$out/all.tar.gz.tmp" . && mv "$out/all.tar.gz.tmp" "$out/all.tar.gz"; }
while kill -0 $pid 2>/dev/null; do sleep 15; pack; done
wait $pid; echo "call4.sh exit $?" >> "$work/summary.txt"; pack
cat "$out/summary.txt"

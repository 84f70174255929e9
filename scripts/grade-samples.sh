#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Grades every sample in submissions/ with the judge and prints each run's table and result line.
# usage: scripts/grade-samples.sh [BUILD_DIR] [OUT_DIR]   (OUT_DIR gets one JSON report per sample)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
build=${1:-build}
out=${2:-}
for f in submissions/*.cu; do
  name=$(basename "$f" .cu)
  args=(run "$f" --quiet --format text)
  [ -n "$out" ] && args+=(--out "$out/$name.json")
  start=$(date +%s%N)
  "$build/judge" "${args[@]}"
  rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  printf '== %s: exit %d, %d.%03d s wall\n\n' "$name" "$rc" $((ms / 1000)) $((ms % 1000))
done

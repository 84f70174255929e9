#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How long the judge takes (issue 4, item 6): one submission end to end with a cold and a warm
# compile cache, then every sample, cold and warm. Prints wall seconds per step.
# usage: scripts/bench/judge-speed.sh [JUDGE] [OUT_DIR] [SAMPLE]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
judge=${1:-build/judge}
out=${2:-$(mktemp -d)}
sample=${3:-submissions/06_warp_unroll.cu}
mkdir -p "$out"
cache=$(mktemp -d)
timed() {  # label, command...
  local label=$1; shift
  local start=$EPOCHREALTIME
  "$@" > /dev/null 2>&1
  local rc=$?
  awk -v l="$label" -v s="$start" -v e="$EPOCHREALTIME" -v rc=$rc 'BEGIN { printf "%-40s %7.2f s (exit %d)\n", l, e - s, rc }'
}
timed "one sample, cold compile cache" "$judge" run "$sample" --cache-dir "$cache" --quiet --format json --out "$out/one-cold.json"
timed "one sample, warm compile cache" "$judge" run "$sample" --cache-dir "$cache" --quiet --format json --out "$out/one-warm.json"
rm -rf "$cache"; cache=$(mktemp -d)
timed "all samples (ladder, all cases), cold" "$judge" ladder --cases all --cache-dir "$cache" --markdown "$out/all-cold.md"
timed "all samples (ladder, all cases), warm" "$judge" ladder --cases all --cache-dir "$cache" --markdown "$out/all-warm.md"
python3 scripts/bench/summarize.py "$out/one-cold.json" "$out/one-warm.json"
rm -rf "$cache"

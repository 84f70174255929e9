#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The catalog on a GPU, for docs/results: per problem, `judge check-problem` (every sample held to
# its expected verdict, timed: the "whole problem's samples in under a minute warm" figure is its
# second run, with the compile cache and the ceilings warm) and `judge ladder --markdown` (the
# story of its samples on its performance cases: GB/s, GFLOP/s, % of the ceiling that binds).
# usage: scripts/bench/catalog.sh OUT_DIR [PROBLEM...]   (default: every problem; needs a GPU)
set -uo pipefail
out=${1:?usage: catalog.sh OUT_DIR [PROBLEM...]}
shift
root="$(cd "$(dirname "$0")/../.." && pwd)"
judge="${JUDGE:-$root/build/judge}"
mkdir -p "$out"
problems=("$@")
if [ ${#problems[@]} -eq 0 ]; then
  for f in "$root"/problems/*/problem.json; do problems+=("$(basename "$(dirname "$f")")"); done
fi
{
  echo "# catalog on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), $(date -u +%FT%TZ), commit $(git -C "$root" rev-parse --short HEAD)"
  for p in "${problems[@]}"; do
    for pass in cold warm; do
      start=$(date +%s.%N)
      "$judge" check-problem "$p" -q --out "$out/check-$p.json" > "$out/check-$p-$pass.txt" 2>&1
      rc=$?
      printf '%s check-problem (%s): exit %d in %.1f s: %s\n' "$p" "$pass" "$rc" \
        "$(echo "$(date +%s.%N) - $start" | bc)" "$(tail -1 "$out/check-$p-$pass.txt")"
    done
    dir="$root/$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('samples','submissions/'+sys.argv[2]))" \
      "$root/problems/$p/problem.json" "$p")"
    "$judge" ladder "$dir" --problem "$p" --markdown "$out/ladder-$p.md" > "$out/ladder-$p.txt" 2>&1
    echo "$p ladder: exit $? ($out/ladder-$p.md)"
  done
} | tee "$out/summary.txt"

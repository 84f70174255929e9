#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The catalog on a GPU, for docs/results: per problem, `judge check-problem` (every sample held to
# its expected verdict) with --markdown (the same runs as the ladder of its samples: GB/s, GFLOP/s,
# % of the ceiling that binds), timed; with WARM=1 a second pass, whose time is the "a whole
# problem's samples in under a minute warm" figure (compile cache and ceilings warm).
# PER_PROBLEM_S caps each pass (default 300 s), so one slow problem leaves time for the rest.
# usage: scripts/bench/catalog.sh OUT_DIR [PROBLEM...]   (default: every problem; needs a GPU)
set -uo pipefail
out=${1:?usage: catalog.sh OUT_DIR [PROBLEM...]}
shift
root="$(cd "$(dirname "$0")/../.." && pwd)"
judge="${JUDGE:-$root/build/judge}"
cap="${PER_PROBLEM_S:-300}"
mkdir -p "$out"
problems=("$@")
if [ ${#problems[@]} -eq 0 ]; then
  for f in "$root"/problems/*/problem.json; do problems+=("$(basename "$(dirname "$f")")"); done
fi
passes=(cold)
if [ "${WARM:-0}" = 1 ]; then passes+=(warm); fi
{
  echo "# catalog on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), $(date -u +%FT%TZ), commit $(git -C "$root" rev-parse --short HEAD)"
  for p in "${problems[@]}"; do
    for pass in "${passes[@]}"; do
      start=$(date +%s%N)
      timeout "$cap" "$judge" check-problem "$p" -v --out "$out/check-$p.json" --markdown "$out/ladder-$p.md" \
        > "$out/check-$p-$pass.txt" 2> "$out/check-$p-$pass.log"
      rc=$?
      printf '%s check-problem (%s): exit %d in %d s: %s\n' "$p" "$pass" "$rc" \
        $(( ($(date +%s%N) - start) / 1000000000 )) "$(tail -1 "$out/check-$p-$pass.txt")"
    done
  done
} | tee "$out/summary.txt"

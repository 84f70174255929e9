#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# "Why is it slow" over the catalog, for docs/results: `judge profile` on every sample whose header
# expects AC (a failing sample has no performance case to profile), one JSON per sample, and a
# summary line each: its wall time (the issue's bar: under 30 s a sample) and its diagnosis's
# headline. PROFILE_CAP_S caps one sample (default 120 s); LADDERS="reduction block_sums" also
# writes those problems' ladders with --profile (the articles' claims beside the diagnoses).
# usage: scripts/bench/profile-catalog.sh OUT_DIR [PROBLEM...]   (default: every problem; needs a GPU and ncu)
set -uo pipefail
out=${1:?usage: profile-catalog.sh OUT_DIR [PROBLEM...]}
shift
root="$(cd "$(dirname "$0")/../.." && pwd)"
judge="${JUDGE:-$root/build/judge}"
cap="${PROFILE_CAP_S:-120}"
mkdir -p "$out"
# A problem's samples live where its problem.json says ("samples"; reduction's are submissions/ itself).
samples_of() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("samples", "submissions/" + sys.argv[2]))' \
    "$root/problems/$1/problem.json" "$1"
}
problems=("$@")
if [ ${#problems[@]} -eq 0 ]; then
  for f in "$root"/problems/*/problem.json; do problems+=("$(basename "$(dirname "$f")")"); done
fi
{
  echo "# judge profile over the catalog on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), $(date -u +%FT%TZ), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null)"
  for p in "${problems[@]}"; do
    mkdir -p "$out/$p"
    for f in "$root/$(samples_of "$p")"/*.cu; do
      expect=$(sed -n 's|^// expect: *||p' "$f" | head -1)
      if [ -n "$expect" ] && [ "$expect" != AC ]; then continue; fi
      name=$(basename "$f" .cu)
      start=$(date +%s%N)
      timeout "$cap" "$judge" profile "$f" --problem "$p" --format json -q > "$out/$p/$name.json" 2> "$out/$p/$name.log"
      rc=$?
      seconds=$(( ($(date +%s%N) - start) / 1000000 ))
      said=$(python3 "$root/scripts/bench/profile-line.py" "$out/$p/$name.json" 2>/dev/null || tail -1 "$out/$p/$name.log")
      printf '%s/%s: exit %d in %d.%03d s: %s\n' "$p" "$name" "$rc" $((seconds / 1000)) $((seconds % 1000)) "$said"
    done
  done
  for p in ${LADDERS:-}; do
    start=$(date +%s)
    timeout 600 "$judge" ladder "$root/$(samples_of "$p")" --problem "$p" --profile --markdown "$out/ladder-$p.md" \
      > "$out/ladder-$p.txt" 2> "$out/ladder-$p.log"
    echo "ladder --profile $p: exit $? in $(( $(date +%s) - start )) s"
  done
} | tee "$out/summary.txt"

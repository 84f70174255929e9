#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Where the judge's spread between runs at small N comes from, without the judge: context_probe.cu
# in 6 processes per setting (one input placement; 24 placements; 3 copies of the code; 8 flush
# buffers), then two processes that time one placement for 8 s each (drift in time).
# usage: scripts/bench/context-spread.sh [JUDGE] [OUT_DIR] [SAMPLE] [N]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
judge=${1:-build/judge}
out=${2:-$(mktemp -d)}
sample=${3:-submissions/10_vectorized.cu}
n=${4:-4194304}
mkdir -p "$out"
nvcc -O2 -o "$out/context_probe" scripts/bench/context_probe.cu -ldl || exit 1
lib=$("$judge" build "$sample" --arch sm_90 | sed -n 's/^ok: \([^ ]*\).*/\1/p')
[[ -n $lib ]] || { echo "could not build $sample"; exit 1; }
# PLACEMENTS COPIES FLUSHES ROUNDS
for setting in "1 1 1 150" "24 1 1 10" "1 3 1 50" "1 1 8 150"; do
  read -r places copies flushes rounds <<< "$setting"
  medians=()
  for _ in 1 2 3 4 5 6; do
    medians+=("$("$out/context_probe" "$lib" "$n" "$places" "$copies" "$flushes" "$rounds" | sed -n 's/^all \([0-9.]*\) us.*/\1/p')")
  done
  python3 - "$places" "$copies" "$flushes" "${medians[@]}" <<'PY'
import statistics, sys
p, c, f, v = sys.argv[1], sys.argv[2], sys.argv[3], [float(x) for x in sys.argv[4:]]
print(f"{p:>2} placement(s), {c} code cop(y/ies), {f} flush buffer(s): per-process medians " + " ".join(f"{x:.3f}" for x in v) +
      f" us; (max-min)/median {(max(v) - min(v)) / statistics.median(v) * 100:.2f}%")
PY
done
"$out/context_probe" "$lib" "$n" 6 3 1 40 | sed 's/^/one process, per placement and per copy: /'
for i in 1 2; do "$out/context_probe" "$lib" "$n" 1 1 1 1 8 | sed "s/^/process $i, /"; done

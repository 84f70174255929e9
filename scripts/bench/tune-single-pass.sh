#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sweeps the shape of submissions/11_single_pass.cu (16-byte loads in flight per thread x blocks
# per SM x the 256-byte L2 prefetch hint) over the performance cases, one judge run per shape, and prints each shape's figures.
# usage: scripts/bench/tune-single-pass.sh [JUDGE] [OUT_DIR]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
judge=${1:-build/judge}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
for prefetch in false true; do
 for loads in 2 4 8; do
  for bps in 4 8; do
    name=11_loads${loads}_bps${bps}_prefetch_${prefetch}
    sed -e "s/constexpr int kLoads = [0-9]*;/constexpr int kLoads = $loads;/" \
        -e "s/constexpr int kBlocksPerSm = [0-9]*;/constexpr int kBlocksPerSm = $bps;/" \
        -e "s/constexpr bool kPrefetch = [a-z]*;/constexpr bool kPrefetch = $prefetch;/" \
        submissions/11_single_pass.cu > "$out/$name.cu"
    "$judge" run "$out/$name.cu" --cases performance --quiet --format json --out "$out/$name.json" > /dev/null
    python3 scripts/bench/summarize.py "$out/$name.json" | grep -v "judge time"
  done
 done
done

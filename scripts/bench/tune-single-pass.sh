#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sweeps submissions/11_single_pass.cu's 16-byte loads in flight per thread over the performance
# cases, one judge run per value, and prints each one's figures.
# usage: scripts/bench/tune-single-pass.sh [JUDGE] [OUT_DIR]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
judge=${1:-build/judge}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
for loads in 1 2 4 8; do
  name=11_loads${loads}
  sed -e "s/constexpr int kLoads = [0-9]*;/constexpr int kLoads = $loads;/" submissions/11_single_pass.cu > "$out/$name.cu"
  "$judge" run "$out/$name.cu" --cases performance --quiet --format json --out "$out/$name.json" > /dev/null
  python3 scripts/bench/summarize.py "$out/$name.json" | grep -v "judge time"
done

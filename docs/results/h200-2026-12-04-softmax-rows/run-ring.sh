#!/usr/bin/env bash
# usage (on the device, from the repository root):
#   docs/results/h200-2026-12-04-softmax-rows/run-ring.sh OUT [FILTER] [extra nvcc flags]
# call 3: run-ring.sh $OUT all
set -u
out=${1:?}; filter=${2:-all}; shift 2 || true
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $out/gpu.txt 2>&1
(cd $here && nvcc -O3 -arch=sm_90 -std=c++17 "$@" bench-ring.cu -o /tmp/bench-ring) > $out/build.txt 2>&1 || { cat $out/build.txt; exit 1; }
set -o pipefail
timeout 150 /tmp/bench-ring $filter 2>&1 | tee $out/log.txt

#!/usr/bin/env bash
# usage (on the device, from the repository root):
#   docs/results/h200-2026-12-04-softmax-rows/run.sh OUT FILTER [extra nvcc flags]
# call 1: run.sh $OUT all
# call 2: run.sh $OUT all -DNO_SWEEP -DSWEEP2 '-DWITH_SAMPLE="../../../submissions/softmax/05_lagged_rows.cu"'
set -u
out=${1:?}; filter=${2:-all}; shift 2 || true
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $out/gpu.txt 2>&1
(cd $here && nvcc -O3 -arch=sm_90 -std=c++17 "$@" bench.cu -o /tmp/bench) > $out/build.txt 2>&1 || { cat $out/build.txt; exit 1; }
set -o pipefail
timeout 160 /tmp/bench $filter 2>&1 | tee $out/log.txt

#!/usr/bin/env bash
# usage: sweep.sh OUT: builds the softmax variants in parallel, runs each (correctness + timing)
set -u
out=${1:?}; mkdir -p "$out"; here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../.." && pwd)
b=/tmp/softmax-sweep; mkdir -p $b
declare -A V=(
  [s05_t512_c8192_s2]="-DSOFTMAX_THREADS=512 -DSOFTMAX_CHUNK=8192 -DSOFTMAX_STAGES=2"
  [s05_t512_c8192_s3]="-DSOFTMAX_THREADS=512 -DSOFTMAX_CHUNK=8192 -DSOFTMAX_STAGES=3"
  [s05_t256_c4096_s3]="-DSOFTMAX_THREADS=256 -DSOFTMAX_CHUNK=4096 -DSOFTMAX_STAGES=3"
  [s05_t256_c4096_s4]="-DSOFTMAX_THREADS=256 -DSOFTMAX_CHUNK=4096 -DSOFTMAX_STAGES=4"
  [s05_t1024_c16384_s2]="-DSOFTMAX_THREADS=1024 -DSOFTMAX_CHUNK=16384 -DSOFTMAX_STAGES=2"
  [s05_t512_c4096_s4]="-DSOFTMAX_THREADS=512 -DSOFTMAX_CHUNK=4096 -DSOFTMAX_STAGES=4"
  [s05_t256_c8192_s2]="-DSOFTMAX_THREADS=256 -DSOFTMAX_CHUNK=8192 -DSOFTMAX_STAGES=2"
)
for v in "${!V[@]}"; do nvcc -O3 -arch=sm_90 ${V[$v]} "$here/bench.cu" "$root/submissions/softmax/05_pipelined_split.cu" -o $b/$v > $out/build-$v.txt 2>&1 & done
for s in 02_online_warp 03_cluster_row 04_split_row; do nvcc -O3 -arch=sm_90 "$here/bench.cu" "$root/submissions/softmax/$s.cu" -o $b/$s > $out/build-$s.txt 2>&1 & done
wait
{
for v in s05_t512_c8192_s2 "${!V[@]}"; do echo "== $v ${V[$v]:-}"; timeout 60 $b/$v $([ "$v" = s05_t512_c8192_s2 ] || echo t) 2>&1; done
for s in 02_online_warp 03_cluster_row 04_split_row; do echo "== $s"; timeout 60 $b/$s t 2>&1; done
} > $out/softmax-sweep.txt 2>&1
grep -E "^==|median|FAIL|ALL" $out/softmax-sweep.txt

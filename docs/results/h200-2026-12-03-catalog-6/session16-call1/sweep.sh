#!/usr/bin/env bash
# usage: sweep.sh OUT: the resident-cluster softmax trial in four variants, against 02/03/04
set -u
out=${1:?}; mkdir -p "$out"; here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../.." && pwd)
b=/tmp/softmax6; mkdir -p $b
declare -A V=(
  [p1e1]="-DSOFTMAX_PREFETCH=1 -DSOFTMAX_ONE_EXP=1"
  [p1e0]="-DSOFTMAX_PREFETCH=1 -DSOFTMAX_ONE_EXP=0"
  [p0e1]="-DSOFTMAX_PREFETCH=0 -DSOFTMAX_ONE_EXP=1"
  [p0e0]="-DSOFTMAX_PREFETCH=0 -DSOFTMAX_ONE_EXP=0"
)
for v in "${!V[@]}"; do nvcc -O3 -arch=sm_90 -Xptxas -v ${V[$v]} "$root/.scratch/softmax/bench.cu" "$here/06_resident_cluster.cu" -o $b/$v > $out/build-$v.txt 2>&1 & done
for s in 02_online_warp 03_cluster_row 04_split_row; do nvcc -O3 -arch=sm_90 "$root/.scratch/softmax/bench.cu" "$root/submissions/softmax/$s.cu" -o $b/$s > $out/build-$s.txt 2>&1 & done
wait
{
for v in p1e1 p1e0 p0e1 p0e0; do echo "== $v ${V[$v]}"; grep -E "registers|spill" $out/build-$v.txt | grep -i resident -A1 | head -4; timeout 60 $b/$v 2>&1; done
for s in 02_online_warp 03_cluster_row 04_split_row; do echo "== $s"; timeout 60 $b/$s t 2>&1; done
} > $out/softmax6-sweep.txt 2>&1
grep -E "^==|median|FAIL|ALL|error" $out/softmax6-sweep.txt

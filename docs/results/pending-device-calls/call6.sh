#!/usr/bin/env bash
# Prepared in session 21, not run (no device time left): the two 06 samples waiting in the results
# folders, copied into submissions/, judged beside their 05 (check-problem --samples), then all of
# vector_add's samples with the host-memory factor of 8. Usage: OUT=... bash call6.sh.
# Files under /tmp, packed into $OUT/all.tar.gz after each step.
set -u
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:?}; w=/tmp/call6; mkdir -p "$w"; t0=$(date +%s); root=$(pwd)
at() { echo "$1 at $(( $(date +%s) - t0 )) s" >> "$w/summary.txt"; }
pack() { cp "$w/summary.txt" "$out/"; tar -C "$w" -czf "$out/all.tar.gz" .; }
cp -n docs/results/h100-2026-12-05-scan-run4/06_lookback_blockidx.cu submissions/prefix_sum/
cp -n docs/results/h100-2026-12-05-softmax-cluster-ring/06_cluster_ring.cu submissions/softmax/
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$w/summary.txt" 2>&1
{ cmake -S "$root" -B /tmp/b -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF && cmake --build /tmp/b -j16 --target judge; } > /tmp/build.txt 2>&1
at "build exit $?"
for f in submissions/prefix_sum/0[56]*.cu submissions/softmax/0[56]*.cu submissions/vector_add/*.cu; do
  p=$(basename "$(dirname "$f")"); /tmp/b/judge build "$f" --problem "$p" --arch sm_90 > /dev/null 2>&1 &
done; wait; at "samples compiled"
run() {  # NAME PROBLEM ARGS...
  local n=$1 p=$2; shift 2; local s=$(date +%s)
  /usr/bin/time -v /tmp/b/judge check-problem "$p" --root "$root" -v --markdown "$w/ladder-$n.md" "$@" > "$w/p-$n.txt" 2> /tmp/log-$n
  at "$n: exit $? in $(( $(date +%s) - s )) s: $(grep -E '^result:' "$w/p-$n.txt" | tail -1)"
  grep -hE "Elapsed|Maximum resident" /tmp/log-$n | sed "s/^/  $n:/" >> "$w/summary.txt"
  grep -E "\[debug\]" /tmp/log-$n | gzip > "$w/timeline-$n.log.gz"; pack
}
run prefix_sum_06 prefix_sum --samples 05_lookback_warp,06_lookback_blockidx --side-by-side 2
run softmax_06 softmax --samples 05_lagged_rows,06_cluster_ring --side-by-side 2
run vector_add vector_add --side-by-side 0
cat "$w/summary.txt"; grep -h "sample\|^|" "$w"/p-*.txt | cut -c1-160

#!/usr/bin/env bash
# Prepared in session 20 (no device came; never run). One device call: the two pending kernel sweeps, then an A/B of the judge's own time on
# one problem: `judge check-problem P --side-by-side 0 -v` built from the tree before this
# session's turn changes (.snapold, e22f748) and after (.snap1), one after the other, each warm
# (its samples compiled first). Run from the folder holding both trees; writes $OUT as it goes.
set -u
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:?}; t0=$(date +%s); top=$(pwd); p=${PROBLEM:-prefix_sum}
at() { echo "$1 at $(( $(date +%s) - t0 )) s" >> "$out/calls.txt"; }
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; nproc; grep MemAvailable /proc/meminfo; } > "$out/gpu.txt" 2>&1
for t in old 1; do
  ( cmake -S "$top/.snap$t" -B "/tmp/b$t" -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF &&
    cmake --build "/tmp/b$t" -j8 --target judge ) > "$out/build-$t.txt" 2>&1 &
done
wait; at "judge built (old: $(test -x /tmp/bold/judge && echo ok), new: $(test -x /tmp/b1/judge && echo ok))"
cd "$top/.snap1" || exit 1
DEADLINE_S=80 timeout -s KILL 110 bash docs/results/h100-2026-12-05-scan-run4/run.sh "$out/scan" > "$out/scan-run.txt" 2>&1
at "scan sweep: exit $?"
timeout -s KILL 170 bash docs/results/h100-2026-12-05-softmax-cluster-ring/run.sh "$out/softmax" > "$out/softmax-run.txt" 2>&1
at "softmax sweep: exit $?"
for t in old 1; do
  cd "$top/.snap$t" || continue
  ( for f in submissions/"$p"/*.cu; do "/tmp/b$t/judge" build "$f" --problem "$p" --arch sm_90 > /dev/null 2>&1 & done; wait )
  left=$(( ${TOTAL:-570} - ($(date +%s) - t0) ))
  [ "$left" -le 40 ] && { at "$t: not started (budget)"; continue; }
  s=$(date +%s)
  timeout "$left" /usr/bin/time -v "/tmp/b$t/judge" check-problem "$p" --root "$top/.snap$t" --side-by-side 0 -v \
    --markdown "$out/ladder-$t.md" > "$out/check-$t.txt" 2> "/tmp/check-$t.log"
  at "check-problem $p, tree $t: exit $?, $(( $(date +%s) - s )) s, $(grep -E '^result:' "$out/check-$t.txt" | tail -1)"
  grep -hE "Elapsed|Maximum resident|User time|System time|Minor" "/tmp/check-$t.log" | sed "s/^/  $t:/" >> "$out/calls.txt"
  grep -E "\[debug\]" "/tmp/check-$t.log" | gzip > "$out/timeline-$t.log.gz"
done
cat "$out/calls.txt"

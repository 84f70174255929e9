#!/usr/bin/env bash
# Session 19, device call 4: each problem's `judge check-problem --side-by-side 0 -v` with the
# protocol v6 fetch (kept outputs sent after the timed calls), the larger memo of expected outputs
# and the cases prepared ahead. Writes as it goes: summary.txt, p-PROBLEM.txt (the check's output,
# its ladder, /usr/bin/time), timelines.tar (each run's -v timeline, gzipped).
set -u
export PATH=/usr/local/cuda/bin:$PATH
root=$(pwd); out=${OUT:?}; t0=$(date +%s)
left() { echo $(( ${BUDGET:-520} - ($(date +%s) - t0) )); }
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x $f /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; nproc; grep MemAvailable /proc/meminfo; cat TREE 2>/dev/null; } > $out/summary.txt 2>&1
{ cmake -S $root -B /tmp/b -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF && cmake --build /tmp/b -j16 --target ${TARGETS:-judge}; } > /tmp/build.txt 2>&1
rc=$?; echo "build exit $rc at $(( $(date +%s) - t0 )) s" | tee -a $out/summary.txt
[ $rc = 0 ] || { tail -40 /tmp/build.txt >> $out/summary.txt; exit 1; }
for p in ${PROBLEMS:-prefix_sum}; do ( for f in submissions/$p/*.cu; do /tmp/b/judge build $f --problem $p --arch sm_90 > /dev/null 2>&1 & done; wait ); done
echo "samples compiled at $(( $(date +%s) - t0 )) s" >> $out/summary.txt
mkdir -p /tmp/tl
for p in ${PROBLEMS:-prefix_sum}; do
  [ "$(left)" -le 30 ] && { echo "$p: not started (budget)" >> $out/summary.txt; continue; }
  s=$(date +%s)
  timeout $(left) /usr/bin/time -v /tmp/b/judge check-problem $p --root $root --side-by-side 0 -v --out /tmp/check-$p.json --markdown /tmp/ladder-$p.md > $out/p-$p.txt 2> /tmp/check-$p.log
  echo "$p: exit $? in $(( $(date +%s) - s )) s: $(grep -E '^result:' $out/p-$p.txt | tail -1)" >> $out/summary.txt
  grep -hE "Elapsed|Maximum resident|User time|System time|Minor" /tmp/check-$p.log | sed "s/^/  $p:/" >> $out/summary.txt
  { echo; echo "## ladder"; cat /tmp/ladder-$p.md; echo; echo "## time"; grep -E "^\s" /tmp/check-$p.log | tail -25; } >> $out/p-$p.txt 2>/dev/null
  grep -E "\[debug\]" /tmp/check-$p.log | gzip > /tmp/tl/timeline-$p.log.gz
  tar -C /tmp/tl -cf $out/timelines.tar .
done
cat $out/summary.txt; grep -hE "FAIL" $out/p-*.txt | cut -c1-200

#!/usr/bin/env bash
# Session 18, device call 3: as call 2, with check-problem's generator and reference checks on
# four cases at once, and each run's ladder (--markdown) to compare the samples' times side by
# side (N = 0) and one at a time (N = 1). The judge's -v timeline comes back for the first run.
set -u
export PATH=/usr/local/cuda/bin:$PATH
root=$(pwd); out=${OUT:?}; t0=$(date +%s)
left() { echo $(( ${BUDGET:-540} - ($(date +%s) - t0) )); }
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x $f /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; cat /sys/kernel/mm/transparent_hugepage/enabled; nproc; } > $out/summary.txt 2>&1
{ cmake -S $root -B /tmp/b -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF && cmake --build /tmp/b -j16 --target ${TARGETS:-judge}; } > /tmp/build.txt 2>&1
rc=$?; echo "build exit $rc at $(( $(date +%s) - t0 )) s" | tee -a $out/summary.txt
[ $rc = 0 ] || { tail -40 /tmp/build.txt >> $out/summary.txt; exit 1; }
for p in ${PROBLEMS:-prefix_sum}; do ( for f in submissions/$p/*.cu; do /tmp/b/judge build $f --problem $p --arch sm_90 > /dev/null 2>&1 & done; wait ); done
echo "samples compiled at $(( $(date +%s) - t0 )) s" >> $out/summary.txt
for spec in ${RUNS:-prefix_sum:0}; do
  p=${spec%%:*}; n=${spec#*:}
  [ "$(left)" -le 30 ] && { echo "$spec: not started (budget)" >> $out/summary.txt; continue; }
  s=$(date +%s)
  timeout $(left) /usr/bin/time -v /tmp/b/judge check-problem $p --root $root --side-by-side $n -v --out /tmp/check-$p-$n.json --markdown $out/ladder-$p-$n.md > $out/check-$p-$n.txt 2> /tmp/check-$p-$n.log
  echo "$p side-by-side $n: exit $? in $(( $(date +%s) - s )) s: $(grep -E '^result:' $out/check-$p-$n.txt | tail -1)" >> $out/summary.txt
  grep -hE "Elapsed|Maximum resident|User time|System time|Minor" /tmp/check-$p-$n.log | sed "s/^/  $p $n:/" >> $out/summary.txt
  [ -e $out/timeline.log.gz ] || grep -E "\[debug\]" /tmp/check-$p-$n.log | gzip > $out/timeline.log.gz
done
if [ -n "${GPU_SUITE:-}" ] && [ "$(left)" -gt 60 ]; then
  s=$(date +%s)
  timeout $(left) ctest --test-dir /tmp/b -L gpu -E '^check_problem_gpu' --output-on-failure > $out/gpu-tests.txt 2>&1
  echo "gpu suite: exit $? in $(( $(date +%s) - s )) s: $(grep -E 'tests passed|tests failed' $out/gpu-tests.txt)" >> $out/summary.txt
fi
cat $out/summary.txt; grep -hE "FAIL" $out/check-*.txt | cut -c1-200

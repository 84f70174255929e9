#!/usr/bin/env bash
# Session 23: an A/B of the judge's own time side by side. "old" is .snapold (a3031c9, before the
# changes: every timed case replaces its worker, and kept outputs are copied to host memory in the
# exclusive turn); "new" is the working tree (a run that finds the case's clock calibration made by
# another run keeps its worker; kept outputs wait in device slots, protocol 7). Each builds
# `judge`; then check-problem --side-by-side 0 -v for each problem in PROBLEMS, in the order old,
# new, new, old per round, on the same machine, while BUDGET seconds last. Writes summary.txt,
# each check's output with its /usr/bin/time -v lines, and the -v timelines (gzipped).
# VERSIONS=new: the new tree alone (a short call), each problem once.
set -u
export PATH=/usr/local/cuda/bin:$PATH
root=$(pwd); out=${OUT:?}; t0=$(date +%s)
left() { echo $(( ${BUDGET:-520} - ($(date +%s) - t0) )); }
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x $f /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; nproc; grep MemAvailable /proc/meminfo; } > $out/summary.txt 2>&1
for v in ${VERSIONS:-new old}; do
  src=$root; [ $v = old ] && src=$root/.snapold
  { cmake -S $src -B /tmp/b-$v -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF && cmake --build /tmp/b-$v -j16 --target judge; } > /tmp/build-$v.txt 2>&1
  rc=$?; echo "build $v exit $rc at $(( $(date +%s) - t0 )) s" >> $out/summary.txt
  [ $rc = 0 ] || { tail -30 /tmp/build-$v.txt >> $out/summary.txt; exit 1; }
done
for p in ${PROBLEMS:-softmax}; do ( for f in submissions/$p/*.cu; do /tmp/b-new/judge build $f --problem $p --arch sm_90 > /dev/null 2>&1 & done; wait ); done
echo "samples compiled at $(( $(date +%s) - t0 )) s" >> $out/summary.txt
check() {  # version problem label
  [ "$(left)" -le 75 ] && { echo "$3 $1 $2: not started (budget)" >> $out/summary.txt; return; }
  local s=$(date +%s) f=$out/$3-$1-$2
  timeout $(left) /usr/bin/time -v /tmp/b-$1/judge check-problem $2 --root $root --side-by-side 0 -v > $f.txt 2> /tmp/check.log
  echo "$3 $1 $2: exit $? in $(( $(date +%s) - s )) s: $(grep -E '^result:' $f.txt | tail -1)" >> $out/summary.txt
  grep -hE "Elapsed|User time|System time|Maximum resident|Minor" /tmp/check.log | sed "s/^/    /" >> $out/summary.txt
  grep -hE "Elapsed|User time|System time|Maximum resident|Minor" /tmp/check.log >> $f.txt
  grep -E "\[debug\]" /tmp/check.log | gzip > $f.log.gz
}
if [ "${VERSIONS:-new old}" = new ]; then  # a short call: the new tree alone, on every problem named
  for p in ${PROBLEMS:-softmax}; do check new $p r1; done
else
  for r in 1 2; do
    for p in ${PROBLEMS:-softmax}; do check old $p r$r; check new $p r$r; done
    for p in ${PROBLEMS:-softmax}; do check new $p r$r-b; check old $p r$r-b; done
  done
fi
cat $out/summary.txt

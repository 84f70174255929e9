#!/usr/bin/env bash
# Session 18, device call 1: build the judge; compile every sample of the problems named (warm
# compile cache); then `judge check-problem P --side-by-side 0 -v` for each problem, warm, with the
# judge's timeline. Every result is written under $OUT as soon as it exists; the script's deadline
# is BUDGET seconds (set it below the call's limit).
set -u
export PATH=/usr/local/cuda/bin:$PATH
root=$(pwd); out=${OUT:?}; t0=$(date +%s)
left() { echo $(( ${BUDGET:-540} - ($(date +%s) - t0) )); }
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x $f /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; git log -1 --format='%H %s'; nproc; free -g; } > $out/summary.txt 2>&1
{ cmake -S $root -B /tmp/b -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF && cmake --build /tmp/b -j16 --target judge; } > /tmp/build.txt 2>&1
rc=$?; echo "build exit $rc at $(( $(date +%s) - t0 )) s" | tee -a $out/summary.txt
[ $rc = 0 ] || { tail -40 /tmp/build.txt >> $out/summary.txt; exit 1; }
for p in ${PROBLEMS:-prefix_sum}; do ( for f in submissions/$p/*.cu; do /tmp/b/judge build $f --problem $p --arch sm_90 > /dev/null 2>&1 & done; wait ); done
echo "samples compiled at $(( $(date +%s) - t0 )) s" >> $out/summary.txt
for spec in ${RUNS:-prefix_sum:0}; do
  p=${spec%%:*}; n=${spec#*:}
  [ "$(left)" -le 30 ] && { echo "$spec: not started (budget)" >> $out/summary.txt; continue; }
  s=$(date +%s)
  timeout $(left) /usr/bin/time -v /tmp/b/judge check-problem $p --root $root --side-by-side $n -v --out $out/check-$p-$n.json > $out/check-$p-$n.txt 2> $out/check-$p-$n.log
  echo "$p side-by-side $n: exit $? in $(( $(date +%s) - s )) s: $(grep -E '^result:' $out/check-$p-$n.txt | tail -1)" >> $out/summary.txt
done
cat $out/summary.txt; grep -hE "FAIL" $out/check-*.txt | cut -c1-200; grep -hE "Elapsed|Maximum resident|User time|System time" $out/check-*.log

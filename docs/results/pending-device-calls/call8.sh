#!/usr/bin/env bash
# Session 24: one call that validates the judge-time changes of sessions 23-24 on a GPU and sizes
# them. "old" is .snapold (a3031c9: every timed case replaces its worker; kept and checked outputs
# copied to host memory in the exclusive turn); "new" is the working tree. Both build side by side
# (new: every target; old: `judge`), then check-problem softmax --side-by-side 0 -v new, old (the
# A/B, same machine), then the GPU suite of the new tree (ctest -L gpu without check_problem_gpu),
# then softmax new and old again while BUDGET lasts. Writes summary.txt as it goes.
set -u
export PATH=/usr/local/cuda/bin:$PATH
root=$(pwd); out=${OUT:?}; t0=$(date +%s)
left() { echo $(( ${BUDGET:-540} - ($(date +%s) - t0) )); }
at() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $out/summary.txt; }
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x $f /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; nproc; grep MemAvailable /proc/meminfo; } > $out/summary.txt 2>&1
build() {  # version source targets jobs
  { cmake -S $2 -B /tmp/b-$1 -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF && cmake --build /tmp/b-$1 -j$4 $3; } > /tmp/build-$1.txt 2>&1
}
build new $root "" 12 & bn=$!
build old $root/.snapold "--target judge" 4 & bo=$!
wait $bn; rn=$?; wait $bo; ro=$?
at "builds: new exit $rn, old exit $ro"
[ $rn = 0 ] || { tail -30 /tmp/build-new.txt >> $out/summary.txt; exit 1; }
[ $ro = 0 ] || tail -30 /tmp/build-old.txt >> $out/summary.txt
( for f in submissions/softmax/*.cu; do /tmp/b-new/judge build $f --problem softmax --arch sm_90 > /dev/null 2>&1 & done; wait )
at "samples compiled"
check() {  # version label
  [ "$(left)" -le 75 ] && { echo "$2 $1: not started (budget)" >> $out/summary.txt; return; }
  [ -x /tmp/b-$1/judge ] || return
  local s=$(date +%s) f=$out/$2-$1-softmax
  timeout $(left) /usr/bin/time -v /tmp/b-$1/judge check-problem softmax --root $root --side-by-side 0 -v > $f.txt 2> /tmp/check.log
  echo "$2 $1 softmax: exit $? in $(( $(date +%s) - s )) s: $(grep -E '^result:' $f.txt | tail -1)" >> $out/summary.txt
  grep -hE "Elapsed|User time|System time|Maximum resident" /tmp/check.log | sed "s/^/    /" >> $out/summary.txt
  grep -hE "Elapsed|User time|System time|Maximum resident|Minor" /tmp/check.log >> $f.txt
  grep -E "\[debug\]" /tmp/check.log | gzip > $f.log.gz
}
check new r1; check old r1
if [ "$(left)" -gt 120 ]; then
  timeout $(( $(left) - 20 )) ctest --test-dir /tmp/b-new -L gpu -E '^check_problem_gpu' --output-on-failure > $out/gpu-tests.txt 2>&1
  at "gpu suite: exit $?, $(grep -E 'tests passed|tests failed' $out/gpu-tests.txt)"
else
  at "gpu suite: not started"
fi
check old r2; check new r2
cat $out/summary.txt

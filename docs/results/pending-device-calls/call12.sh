#!/usr/bin/env bash
# Session 25, for the next session: does checking outputs where they lie (1ed895d) shorten the
# judge's whole-problem time? "old" is .snapold (git archive 014e18d, the last tree before it),
# "new" the working tree; both built side by side, their samples compiled, then
# check-problem --side-by-side 0 of each of PROBLEMS in ABBA order (new, old, old, new) on this
# one machine. Writes $OUT/summary.txt (time -v's lines per run) and each run's check output.
# Layout and command: pending-device-calls/README.md, "Session 25".
set -u
export PATH=/usr/local/cuda/bin:$PATH
root=$(pwd); out=${OUT:?}; t0=$(date +%s); budget=${BUDGET:-550}
left() { echo $(( budget - ($(date +%s) - t0) )); }
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x $f /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; grep MemAvailable /proc/meminfo; } > $out/summary.txt 2>&1
build() {  # version source
  { cmake -S $2 -B /tmp/b-$1 -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF &&
    cmake --build /tmp/b-$1 -j8 --target judge; } > /tmp/build-$1.txt 2>&1
}
build new $root & bn=$!; build old $root/.snapold & bo=$!
wait $bn; rn=$?; wait $bo; ro=$?
echo "builds: new exit $rn, old exit $ro at $(( $(date +%s) - t0 )) s" >> $out/summary.txt
[ $rn = 0 ] && [ $ro = 0 ] || { tail -30 /tmp/build-new.txt /tmp/build-old.txt >> $out/summary.txt; cat $out/summary.txt; exit 1; }
for p in $PROBLEMS; do ( for f in submissions/$p/*.cu; do /tmp/b-new/judge build $f --problem $p --arch sm_90 > /dev/null 2>&1 & done; wait ); done
echo "samples compiled at $(( $(date +%s) - t0 )) s" >> $out/summary.txt
check() {  # problem version label
  [ "$(left)" -le 75 ] && { echo "$1 $3 $2: not started (budget)" >> $out/summary.txt; return; }
  local s=$(date +%s)
  # The host memory the whole check takes (all its concurrent runs), for a per-problem memory factor.
  # Seeded before the sampler starts, so a check shorter than its period still reports a value.
  avail() { awk '/MemAvailable/{print $2}' /proc/meminfo; }
  avail > /tmp/memlo
  ( while sleep 0.5; do a=$(avail); [ $a -lt $(cat /tmp/memlo) ] && echo $a > /tmp/memlo; done ) & local sampler=$!
  timeout $(left) /usr/bin/time -v /tmp/b-$2/judge check-problem $1 --root $root --side-by-side 0 > $out/$1-$3-$2.txt 2> /tmp/check.log
  echo "$1 $3 $2: exit $? in $(( $(date +%s) - s )) s: $(grep -E '^result:' $out/$1-$3-$2.txt | tail -1)" >> $out/summary.txt
  grep -hE "Elapsed|User time|System time|Maximum resident|Minor" /tmp/check.log | sed "s/^/    /" >> $out/summary.txt
  kill $sampler 2>/dev/null; echo "    lowest MemAvailable during the check: $(( $(cat /tmp/memlo) / 1024 )) MiB" >> $out/summary.txt; rm -f /tmp/memlo
}
for p in $PROBLEMS; do check $p new r1; check $p old r1; check $p old r2; check $p new r2; done
cat $out/summary.txt

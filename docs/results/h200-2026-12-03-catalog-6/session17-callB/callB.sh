#!/usr/bin/env bash
# Session 17, device call B: build; prefix_sum's samples compiled; check-problem prefix_sum warm,
# side by side, with the judge's timeline (-v); then one at a time, for the comparison.
set -u
export PATH=/usr/local/cuda/bin:$PATH
root=$(pwd); out=${OUT:?}; w=/tmp/cB; mkdir -p $w; t0=$(date +%s)
left() { echo $(( ${BUDGET:-570} - ($(date +%s) - t0) )); }
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x $f /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
{ cmake -S $root -B /tmp/b -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF && cmake --build /tmp/b -j16 --target judge; } > $w/build.txt 2>&1
echo "build exit $? at $(( $(date +%s) - t0 )) s" | tee -a $w/summary.txt
for p in ${PROBLEMS:-prefix_sum}; do ( for f in submissions/$p/*.cu; do /tmp/b/judge build $f --problem $p --arch sm_90 > /dev/null 2>&1 & done; wait ); done
echo "samples compiled at $(( $(date +%s) - t0 )) s" >> $w/summary.txt
for spec in ${RUNS:-prefix_sum:0 prefix_sum:1}; do
  p=${spec%%:*}; n=${spec#*:}
  [ "$(left)" -le 40 ] && { echo "$spec: not started (budget)" >> $w/summary.txt; continue; }
  s=$(date +%s)
  timeout $(left) /usr/bin/time -v /tmp/b/judge check-problem $p --root $root --side-by-side $n -v --out $w/check-$p-$n.json --markdown $w/ladder-$p-$n.md > $w/check-$p-$n.txt 2> $w/check-$p-$n.log
  echo "$p side-by-side $n: exit $? in $(( $(date +%s) - s )) s: $(grep -E '^result:' $w/check-$p-$n.txt | tail -1)" >> $w/summary.txt
done
tar -czf $out/callB.tar.gz -C $w .
cat $w/summary.txt; grep -hE "FAIL|  ok    sample" $w/check-*.txt | cut -c1-200; grep -hE "Elapsed|Maximum resident" $w/check-*.log

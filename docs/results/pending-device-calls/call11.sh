#!/usr/bin/env bash
# Session 25: is the judge's remaining whole-problem time page faults? check-problem (side by side,
# -v) of PROBLEMS, each in ABBA order: A as shipped, B with GLIBC_TUNABLES=glibc.malloc.hugetlb=1
# (glibc's malloc asks for transparent huge pages on the large blocks it maps). Writes
# $OUT/summary.txt (time -v's lines per run) and each run's check output.
set -u
export PATH=/usr/local/cuda/bin:$PATH
root=$(pwd); out=${OUT:?}; t0=$(date +%s); budget=${BUDGET:-540}
left() { echo $(( budget - ($(date +%s) - t0) )); }
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x $f /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ldd --version | head -1
  for f in enabled defrag khugepaged/defrag; do echo "thp $f: $(cat /sys/kernel/mm/transparent_hugepage/$f)"; done; } > $out/summary.txt 2>&1
{ cmake -S $root -B /tmp/b -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF && cmake --build /tmp/b -j16 --target judge; } > /tmp/build.txt 2>&1
rc=$?; echo "build exit $rc at $(( $(date +%s) - t0 )) s" >> $out/summary.txt
[ $rc = 0 ] || { tail -40 /tmp/build.txt >> $out/summary.txt; cat $out/summary.txt; exit 1; }
for p in $PROBLEMS; do ( for f in submissions/$p/*.cu; do /tmp/b/judge build $f --problem $p --arch sm_90 > /dev/null 2>&1 & done; wait ); done
echo "samples compiled at $(( $(date +%s) - t0 )) s" >> $out/summary.txt
check() {  # problem label tunables
  [ "$(left)" -le 70 ] && { echo "$1 $2: not started (budget)" >> $out/summary.txt; return; }
  local s=$(date +%s)
  GLIBC_TUNABLES=$3 timeout $(left) /usr/bin/time -v /tmp/b/judge check-problem $1 --root $root --side-by-side 0 > $out/$1-$2.txt 2> /tmp/check.log
  echo "$1 $2: exit $? in $(( $(date +%s) - s )) s: $(grep -E '^result:' $out/$1-$2.txt | tail -1)" >> $out/summary.txt
  grep -hE "Elapsed|User time|System time|Maximum resident|Minor" /tmp/check.log | sed "s/^/    /" >> $out/summary.txt
}
for p in $PROBLEMS; do
  check $p A1 ""; check $p B1 glibc.malloc.hugetlb=1; check $p B2 glibc.malloc.hugetlb=1; check $p A2 ""
done
cat $out/summary.txt

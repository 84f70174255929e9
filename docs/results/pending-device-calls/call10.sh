#!/usr/bin/env bash
# Session 25: every target of the working tree built (/tmp/b), the GPU suite (ctest -L gpu without
# check_problem_gpu, whose work the checks below do with their timelines), then session 19's
# call4.sh (check-problem --side-by-side 0 -v with its ladder) for PROBLEMS while BUDGET lasts.
# Output: $OUT/summary.txt, $OUT/gpu-tests.txt, $OUT/all.tar.gz (call4's files, packed as call5.sh does).
set -u
export PATH=/usr/local/cuda/bin:$PATH
root=$(pwd); out=${OUT:?}; t0=$(date +%s); budget=${BUDGET:-540}
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x $f /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
{ cmake -S $root -B /tmp/b -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF && cmake --build /tmp/b -j16; } > /tmp/build-all.txt 2>&1
rc=$?; echo "build (all targets) exit $rc at $(( $(date +%s) - t0 )) s" > $out/summary.txt
[ $rc = 0 ] || { tail -40 /tmp/build-all.txt >> $out/summary.txt; cat $out/summary.txt; exit 1; }
timeout $(( budget - 60 - ($(date +%s) - t0) )) ctest --test-dir /tmp/b -L gpu -E '^check_problem_gpu' --output-on-failure > $out/gpu-tests.txt 2>&1
echo "gpu suite: exit $? at $(( $(date +%s) - t0 )) s: $(grep -E 'tests passed|tests failed' $out/gpu-tests.txt)" >> $out/summary.txt
left=$(( budget - ($(date +%s) - t0) ))
if [ $left -gt 60 ]; then
  work=/tmp/call10; mkdir -p $work
  OUT=$work BUDGET=$left TARGETS=judge bash $root/docs/results/h200-2026-12-04-judge-time-2/call4.sh > $work/call4-run.txt 2>&1
  cat $work/summary.txt >> $out/summary.txt; tar -C $work -czf $out/all.tar.gz .
fi
cat $out/summary.txt; grep -E "Failed|\*\*\*" $out/gpu-tests.txt | head -20

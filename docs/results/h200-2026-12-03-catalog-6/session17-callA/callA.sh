#!/usr/bin/env bash
# Session 17, device call A: build; the GPU suite (without the catalog checks); check-problem of
# prefix_sum and softmax, cold, samples side by side (the default).
set -u
export PATH=/usr/local/cuda/bin:$PATH
root=$(pwd); out=${OUT:?}; w=/tmp/cA; mkdir -p $w; t0=$(date +%s)
left() { echo $(( ${BUDGET:-570} - ($(date +%s) - t0) )); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv > $w/gpu.txt 2>&1
nproc >> $w/gpu.txt; free -g >> $w/gpu.txt; git -C $root log --oneline -1 >> $w/gpu.txt 2>&1
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x $f /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
{ cmake -S $root -B /tmp/b -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF && cmake --build /tmp/b -j16 --target judge judge_gpu_tests judge_adversarial_tests; } > $w/build.txt 2>&1
echo "build exit $? at $(( $(date +%s) - t0 )) s" | tee -a $w/summary.txt
timeout 300 ctest --test-dir /tmp/b -L gpu -E '^check_problem_gpu' --output-on-failure -j1 > $w/gpu-tests.txt 2>&1
echo "gpu-tests exit $? at $(( $(date +%s) - t0 )) s" >> $w/summary.txt
for p in prefix_sum softmax; do
  [ "$(left)" -le 30 ] && { echo "$p: not started (budget)" >> $w/summary.txt; continue; }
  s=$(date +%s)
  timeout $(left) /usr/bin/time -v /tmp/b/judge check-problem $p --root $root --out $w/check-$p-cold.json --markdown $w/ladder-$p-cold.md > $w/check-$p-cold.txt 2>&1
  echo "$p cold side by side: exit $? in $(( $(date +%s) - s )) s: $(grep -E '^result:' $w/check-$p-cold.txt | tail -1)" >> $w/summary.txt
done
tar -czf $out/callA.tar.gz -C $w .
cat $w/summary.txt; grep -E "tests passed|tests failed|\*\*\*Failed|Skipped|Not Run" $w/gpu-tests.txt | tail -15; grep -hE "FAIL|sample|Elapsed|Maximum resident" $w/check-*-cold.txt | cut -c1-300

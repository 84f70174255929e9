#!/usr/bin/env bash
# usage (on the device, from the repository root):
#   bash docs/results/h100-2026-12-05-softmax-cluster-ring/run.sh OUT [FILTER]
# Builds bench.cu (nvcc -O3 -arch=sm_90 -std=c++17, ptxas report in OUT/build.txt) and runs it,
# logging to OUT/log-N.txt. The harness exits with status 3 when a variant does not finish a call
# within its watchdog (10 s; it prints "HANG variant NAME"); the bench is then run again without
# that variant (SKIP=...), at most 3 times in all. Each run is also killed after 150 s.
set -u
out=${1:?usage: run.sh OUT [FILTER]}
filter=${2:-all}
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$out/gpu.txt" 2>&1
cat "$out/gpu.txt"
bin=/tmp/bench-cluster-ring
start=$(date +%s)
if ! (cd "$here" && nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v bench.cu -o "$bin") > "$out/build.txt" 2>&1; then
  grep -v "^ptxas info\|bytes stack frame" "$out/build.txt" | head -50
  echo "BUILD FAILED"
  exit 1
fi
echo "built in $(( $(date +%s) - start )) s"
grep -c "warning" "$out/build.txt" | sed 's/^/build warnings: /'

skip=""
rc=0
for attempt in 1 2 3; do
  log="$out/log-$attempt.txt"
  SKIP="$skip" timeout -s KILL 150 "$bin" "$filter" > "$log" 2>&1
  rc=$?
  # the table and the summary (the full log is in OUT)
  grep -E "^(device|info|skipped|HANG|CUDA|\||summary|ALL PASS|SOME FAILED)|FAIL" "$log"
  if [ $rc -eq 3 ]; then
    hung=$(sed -n 's/^HANG variant \([^ ]*\).*/\1/p' "$log" | tail -1)
    echo "attempt $attempt: variant $hung hung; running again without it"
    skip="${skip:+$skip,}$hung"
    continue
  fi
  [ $rc -eq 137 ] && echo "attempt $attempt: killed after 150 s (see $log for the last variant)"
  break
done
echo "exit status $rc, $(( $(date +%s) - start )) s in all"
exit $rc

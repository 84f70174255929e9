#!/usr/bin/env bash
# Prepared in session 21. One device call, from the repository root: the two pending kernel sweeps
# while every target builds (nice 19, beside them: the sweeps time GPU work with CUDA events), then
# the GPU test suite (`ctest -L gpu`, without the check_problem_gpu tests, which call4.sh covers).
# Usage: OUT=... TOTAL=570 bash call3.sh. Writes $OUT/calls.txt as it goes.
set -u
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:?}; t0=$(date +%s); root=$(pwd)
at() { echo "$1 at $(( $(date +%s) - t0 )) s" >> "$out/calls.txt"; }
[ -d /tmp/deps ] || for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
( cmake -S "$root" -B /tmp/ball -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DJUDGE_WITH_SERVE=OFF &&
  nice -n 19 cmake --build /tmp/ball -j14 ) > "$out/build-all.txt" 2>&1 &
build=$!
if [ -z "${SKIP_SWEEPS:-}" ]; then
  DEADLINE_S=80 timeout -s KILL 110 bash docs/results/h100-2026-12-05-scan-run4/run.sh "$out/scan" > "$out/scan-run.txt" 2>&1
  at "scan sweep: exit $?"
  timeout -s KILL 200 bash docs/results/h100-2026-12-05-softmax-cluster-ring/run.sh "$out/softmax" > "$out/softmax-run.txt" 2>&1
  at "softmax sweep: exit $?"
fi
wait $build; rc=$?; at "build of all targets: exit $rc"
[ $rc = 0 ] || { tail -40 "$out/build-all.txt" >> "$out/calls.txt"; exit 1; }
left=$(( ${TOTAL:-570} - ($(date +%s) - t0) ))
if [ "$left" -gt 60 ]; then
  timeout "$left" ctest --test-dir /tmp/ball -L gpu -E '^check_problem_gpu' --output-on-failure > "$out/gpu-tests.txt" 2>&1
  at "gpu suite: exit $?, $(grep -E 'tests passed|tests failed' "$out/gpu-tests.txt")"
else
  at "gpu suite: not started ($left s left)"
fi
cat "$out/calls.txt"

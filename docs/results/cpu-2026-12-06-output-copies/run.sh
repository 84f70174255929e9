#!/usr/bin/env bash
# Builds bench.cc against two trees' judge_core (OLD_SRC/OLD_BUILD and NEW_SRC/NEW_BUILD, each
# with `judge` built) and runs them in ABAB order at N = 2^LOG2N.
# e.g. OLD_SRC=/tmp/old OLD_BUILD=/tmp/bold NEW_SRC=$PWD NEW_BUILD=$PWD/build bash run.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
for v in OLD NEW; do
  src=${v}_SRC build=${v}_BUILD
  g++ -std=c++20 -O2 -I"${!src}" -I/usr/local/cuda/include -DJUDGE_PROBLEMS="\"${NEW_SRC}/problems\"" \
    "$here/bench.cc" -o /tmp/bench-$v "${!build}/libjudge_core.a" /usr/local/cuda/lib/libcudart.so \
    -lspdlog -lfmt -ldl -lseccomp -lrt -lpthread -Wl,-rpath,/usr/local/cuda/lib
done
for v in OLD NEW OLD NEW; do echo "== $v"; /tmp/bench-$v "${LOG2N:-27}"; done

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A pass of GPU verification in stages, for a machine lent by the call (a few minutes each): every
# stage is capped by a deadline, so a call ends with its logs and a summary rather than killed in
# the middle; everything lands in OUT as summary.txt and logs.tar.gz (two files).
# usage: scripts/bench/gpu-pass.sh OUT STAGE...
#   build               configure and build the judge and the GPU tests (sm_90 unless ARCH=..., no
#                       serve) in $BUILD (default /tmp/gpu-pass-build); Debian packages in .deps/
#                       (scripts' fetch-debs) are unpacked first where the machine has no registry
#   gpu-tests           ctest -L gpu, without the catalog's check_problem_gpu.* (the stages below)
#   check:P[:S1,S2]     judge check-problem P (only samples S1,S2 when given), with its ladder
#   warm-check:P        judge check-problem P twice: the second run's time is the warm figure
#                       (compiles and the GPU's ceilings cached by the first)
#   profile:P           scripts/bench/profile-catalog.sh over problem P's samples
#   ladder-profile:P    judge ladder --profile over submissions/P (the articles' claims beside it)
# DEADLINE_S (default 540) is when no stage may start any more; each runs under what is left.
set -uo pipefail
out=${1:?usage: gpu-pass.sh OUT STAGE...}
shift
root="$(cd "$(dirname "$0")/../.." && pwd)"
build=${BUILD:-/tmp/gpu-pass-build}
work=$(mktemp -d /tmp/gpu-pass-XXXXXX)
deadline=$(( $(date +%s) + ${DEADLINE_S:-540} ))
mkdir -p "$out"
summary="$out/summary.txt"
echo "# gpu-pass $(date -u +%FT%TZ) commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)" > "$summary"

# A problem's samples live where its problem.json says ("samples"; reduction's are submissions/ itself).
samples_of() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("samples", "submissions/" + sys.argv[2]))' \
    "$root/problems/$1/problem.json" "$1"
}
say() { echo "$*" | tee -a "$summary"; }
left() { echo $(( deadline - $(date +%s) )); }

# run NAME COMMAND...: the command under the time left, its output in the work folder, one line.
run() {
  local name=$1 start rc
  shift
  if [ "$(left)" -le 5 ]; then
    say "$name: not started (deadline)"
    return
  fi
  start=$(date +%s)
  timeout "$(left)" "$@" > "$work/$name.txt" 2>&1
  rc=$?
  local last
  last=$(grep -E '^result:|tests passed|^[a-z_]+/[0-9]' "$work/$name.txt" | tail -1)
  # A stage the deadline killed may still have printed a result line for what it reached.
  if [ "$rc" -eq 124 ]; then last="CUT by the deadline; its last result line: ${last:-none}"; fi
  say "$name: exit $rc in $(( $(date +%s) - start )) s: ${last:-$(tail -1 "$work/$name.txt")}"
}

for stage in "$@"; do
  case $stage in
    build)
      if compgen -G "$root/.deps/*.deb" > /dev/null; then
        for f in "$root"/.deps/*.deb; do dpkg -x "$f" /tmp/deps; done
        export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
      fi
      # The test binaries cost minutes of nvcc: built only when this call runs them.
      targets="judge"
      case " $* " in *" gpu-tests "*) targets="judge judge_gpu_tests judge_adversarial_tests" ;; esac
      run build bash -c "cmake -S '$root' -B '$build' -G Ninja -DCMAKE_CUDA_ARCHITECTURES=${ARCH:-90} \
        -DJUDGE_WITH_SERVE=OFF && cmake --build '$build' -j$(nproc) --target $targets"
      ;;
    gpu-tests)
      run gpu-tests ctest --test-dir "$build" -L gpu -E '^check_problem_gpu' --output-on-failure -j1
      ;;
    check:*)
      spec=${stage#check:} problem=${spec%%:*} samples=()
      if [ "$spec" != "$problem" ]; then samples=(--samples "${spec#*:}"); fi
      run "check-$problem" "$build/judge" check-problem "$problem" --root "$root" "${samples[@]}" \
        --out "$work/check-$problem.json" --markdown "$work/ladder-$problem.md"
      ;;
    warm-check:*)
      problem=${stage#warm-check:}
      run "check-$problem-cold" "$build/judge" check-problem "$problem" --root "$root" -q
      run "check-$problem-warm" "$build/judge" check-problem "$problem" --root "$root" -q \
        --markdown "$work/ladder-$problem-warm.md"
      ;;
    profile:*)
      problem=${stage#profile:}
      run "profile-$problem" env JUDGE="$build/judge" PROFILE_CAP_S=120 \
        bash "$root/scripts/bench/profile-catalog.sh" "$work/profile" "$problem"
      ;;
    ladder-profile:*)
      problem=${stage#ladder-profile:}
      run "ladder-profile-$problem" "$build/judge" ladder "$root/$(samples_of "$problem")" --problem "$problem" --root "$root" \
        --profile --markdown "$work/ladder-profile-$problem.md"
      ;;
    *) say "$stage: unknown stage (build, gpu-tests, check:P[:S,...], warm-check:P, profile:P, ladder-profile:P)" ;;
  esac
done
tar -czf "$out/logs.tar.gz" -C "$work" .
say "logs: $out/logs.tar.gz"

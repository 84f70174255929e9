#!/usr/bin/env bash
# Run 4 build: bin/scan-bench from variants4.txt. Each variant is its own translation unit with
# solve renamed to solve_NAME (the sample files exactly as in submissions/, candidate-06.cu with the
# line's -D options), linked with scan-bench.cu. Writes bin/ptxas-summary.txt (registers, spills,
# shared memory per variant) and bin/identity.txt (whether C6_base's PTX equals 05_sample's, names
# aside: then the two are the same machine code, since ptxas is the same).
#   JOBS=N       parallel nvcc processes (default 1; the device machine has 16 cores)
#   IDENTITY=0   skip the PTX comparison
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
B="$HERE/bin"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
FLAGS="-O3 -arch=sm_90 -std=c++17"
JOBS=${JOBS:-1}
mkdir -p "$B"
rm -f "$B"/v_*.o "$B"/v_*.log "$B"/*.ptx "$B/scan-bench"
: >"$B/v4-decls.inc"
: >"$B/v4-entries.inc"
OBJS=""
pids=""
src_of() {
  case "$1" in
    @04) echo "$ROOT/submissions/prefix_sum/04_pipelined_lookback.cu" ;;
    @05) echo "$ROOT/submissions/prefix_sum/05_lookback_warp.cu" ;;
    *) echo "$HERE/$1" ;;
  esac
}
while read -r name kind src defs; do
  case "$name" in '' | '#'*) continue ;; esac
  file=$(src_of "$src")
  [ -f "$file" ] || { echo "missing source $file for $name"; exit 1; }
  case "$kind" in check) check=true ;; time) check=false ;; *) echo "bad kind $kind for $name"; exit 1 ;; esac
  probe_args=""
  probe=nullptr
  case "$src" in @*) ;; *) probe_args="-DC6_PROBE_FN=probe_$name"; probe="probe_$name" ;; esac
  echo "extern \"C\" void solve_$name(const float*, float*, int);" >>"$B/v4-decls.inc"
  [ "$probe" = nullptr ] || echo "extern \"C\" void probe_$name(const char*);" >>"$B/v4-decls.inc"
  echo "{\"$name\", solve_$name, $probe, $check, \"$src ${defs:-}\"}," >>"$B/v4-entries.inc"
  OBJS="$OBJS $B/v_$name.o"
  # shellcheck disable=SC2086
  $NVCC $FLAGS -Xptxas -v -c -Dsolve=solve_$name $probe_args ${defs:-} "$file" -o "$B/v_$name.o" >"$B/v_$name.log" 2>&1 &
  pids="$pids $!"
  if [ "$(echo $pids | wc -w)" -ge "$JOBS" ]; then
    for p in $pids; do wait "$p" || { echo "nvcc failed: see $B/v_*.log"; exit 1; }; done
    pids=""
  fi
done <"$HERE/variants4.txt"
for p in $pids; do wait "$p" || { echo "nvcc failed: see $B/v_*.log"; exit 1; }; done

# shellcheck disable=SC2086
$NVCC $FLAGS -I"$B" -o "$B/scan-bench" "$HERE/scan-bench.cu" $OBJS >"$B/build.log" 2>&1 || { cat "$B/build.log"; exit 1; }

{
  for f in "$B"/v_*.log; do
    n=$(basename "$f" .log)
    echo "${n#v_}: $(grep -E 'registers' "$f" | sed 's/.*Used/Used/' | tr '\n' ' ') $(grep -E 'spill' "$f" | sed 's/^ *//' | tr '\n' ' ')"
  done
} >"$B/ptxas-summary.txt"
# Anything nvcc said beyond ptxas's info lines is a warning.
if grep -h -v -E '^ptxas info|^    [0-9]+ bytes stack frame|^$' "$B"/v_*.log "$B/build.log" >"$B/warnings.txt"; then
  echo "WARNINGS (bin/warnings.txt):"
  cat "$B/warnings.txt"
else
  echo "no warnings" >"$B/warnings.txt"
fi

if [ "${IDENTITY:-1}" != 0 ] && grep -q '^C6_base ' "$HERE/variants4.txt"; then
  norm() { sed -E 's/_ZZ?N[0-9]+_(GLOBAL__N__|INTERNAL_)[A-Za-z0-9_]*(ScanTiles|g_next_tile)/X_\2/g; /^[[:space:]]*\/\//d' "$1"; }
  $NVCC $FLAGS -ptx -Dsolve=solve_05_sample "$(src_of @05)" -o "$B/05.ptx"
  $NVCC $FLAGS -ptx -Dsolve=solve_C6_base "$HERE/candidate-06.cu" -o "$B/base.ptx"
  if diff <(norm "$B/05.ptx") <(norm "$B/base.ptx") >/dev/null; then
    echo "C6_base: PTX identical to 05_sample (names aside)" >"$B/identity.txt"
  else
    echo "C6_base: PTX DIFFERS from 05_sample" >"$B/identity.txt"
  fi
  cat "$B/identity.txt"
fi
echo "built $B/scan-bench"

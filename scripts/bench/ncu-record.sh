#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Records Nsight Compute's raw metrics (CSV, one row per kernel) of the Reduce articles' samples
# (reduction N = 4M, block_sums N = 32M), each solve() called once under a bare driver
# (ncu_record.cu); the first metric fixtures of the profile rules came from this.
# usage: scripts/bench/ncu-record.sh OUT_DIR   (needs a GPU, nvcc and ncu)
set -uo pipefail
out=${1:?usage: ncu-record.sh OUT_DIR}
root="$(cd "$(dirname "$0")/../.." && pwd)"
mkdir -p "$out/lib"
nvcc -O2 -o "$out/ncu_record" "$root/scripts/bench/ncu_record.cu" -ldl || exit 1
sections=(SpeedOfLight MemoryWorkloadAnalysis Occupancy LaunchStats WarpStateStats SchedulerStats
  ComputeWorkloadAnalysis InstructionStats SourceCounters)
extra=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_global_red.sum,smsp__inst_executed_op_global_atom.sum,smsp__inst_executed_op_shared_atom.sum,lts__t_requests_op_red.sum,lts__t_requests_op_atom.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__thread_inst_executed_per_inst_executed.ratio,local_load_bytes:l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum
sec_args=()
for s in "${sections[@]}"; do sec_args+=(--section "$s"); done
record() {  # problem n file
  local p=$1 n=$2 f=$3 name
  name="$p-$(basename "$f" .cu)"
  nvcc -O3 -shared -Xcompiler -fPIC -cudart shared -arch=sm_90 -lcublas -o "$out/lib/$name.so" "$f" 2> "$out/$name.build.err" || {
    echo "$name: build failed"; return; }
  local t0=$SECONDS
  ncu --clock-control none --cache-control all "${sec_args[@]}" --metrics "${extra//local_load_bytes:/}" \
    --page raw --csv "$out/ncu_record" "$out/lib/$name.so" "$p" "$n" 1 > "$out/$name.csv" 2> "$out/$name.err"
  echo "$name: exit $?, $((SECONDS - t0)) s, $(grep -c '^"' "$out/$name.csv") rows"
}
for f in "$root"/submissions/[01]*.cu; do record reduction 4194304 "$f"; done
for f in "$root"/submissions/block_sums/0*.cu; do record block_sums 33554432 "$f"; done
ncu --query-metrics --chip gh100 > "$out/query-metrics-gh100.txt" 2>&1

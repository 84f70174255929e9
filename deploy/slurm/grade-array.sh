#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Grades a course's submissions as a Slurm job array: one task per shard, one GPU each, results
# in a shared folder; a dependent job merges them into the leaderboard and reports.
#   deploy/slurm/grade-array.sh SUBMISSIONS_DIR RESULTS_DIR [SHARDS]
# Each task runs `judge batch --shard I/N`; a requeued or rerun task skips what it already graded.
# Exit codes as in deploy/k8s/grade-job.yaml: 0 graded, 2 bad input, 3 no GPU, 4 judge fault.
set -euo pipefail
submissions=${1:?usage: grade-array.sh SUBMISSIONS_DIR RESULTS_DIR [SHARDS]}
results=${2:?usage: grade-array.sh SUBMISSIONS_DIR RESULTS_DIR [SHARDS]}
shards=${3:-4}
mkdir -p "$results/logs"
array_job=$(sbatch --parsable --job-name=gpu-judge --array="0-$((shards - 1))" --gres=gpu:1 --cpus-per-task=8 \
  --time=04:00:00 --requeue --output="$results/logs/shard-%a.log" \
  --wrap="judge batch '$submissions' --out '$results' --shard \${SLURM_ARRAY_TASK_ID}/$shards --cache-dir '$results/.cache'")
# afterany: merge what exists even if a shard failed; the merged report lists what was graded.
sbatch --parsable --job-name=gpu-judge-merge --dependency="afterany:$array_job" --output="$results/logs/merge.log" \
  --wrap="judge merge '$results' --out '$results'"
echo "submitted shards as job $array_job; the merge runs when they end; results in $results"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Grades a course's submissions as a Slurm job array: one task per shard (shard.sbatch: one GPU
# each by default), results in one shared folder, then a merge job (merge.sbatch) that runs when
# every task has ended, however it ended (afterany), and fails (exit 5) naming the students whose
# shard left them ungraded. Every path and option travels as an argument of its own, never through
# a shell string, so quotes and spaces in paths are safe.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() {
  cat <<'USAGE'
usage: grade-array.sh [OPTION...] SUBMISSIONS RESULTS [SHARDS] [-- JUDGE_BATCH_OPTION...]
  --shards N          array tasks = shards (default 4; or the third operand)
  --judge PATH        the judge binary, at a path the compute nodes see (default: $JUDGE_BIN, else
                      `judge` found on this PATH, made absolute; the jobs do not search PATH)
  --sbatch ARG        one sbatch option for both jobs, repeatable (--sbatch --partition=gpu --sbatch --account=cs101)
  --shard-sbatch ARG  one sbatch option for the array only (--shard-sbatch --gres=gpu:h100:1 --shard-sbatch --time=2:00:00)
  --merge-arg ARG     one option for `judge merge`, repeatable (--merge-arg --points --merge-arg /course/points.json)
  after --             options for `judge batch` on every task (--problem, --cases, --testcases, --device,
                      --timing-processes, --points, --jobs, ...)
The array's defaults are shard.sbatch's #SBATCH lines (--gres=gpu:1 --cpus-per-task=4 --requeue --open-mode=append, the
partition's time limit); options given here and SBATCH_* variables override them. Logs:
RESULTS/logs/shard-<array job>_<task>.log and merge-<job>.log.
USAGE
}

die() {
  echo "grade-array: $*" >&2
  exit 1
}

shards=4 judge=${JUDGE_BIN:-} sbatch_both=() sbatch_array=() merge_args=() operands=() judge_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --shards) shards=${2:?--shards needs a number}; shift 2 ;;
    --judge) judge=${2:?--judge needs a path}; shift 2 ;;
    --sbatch) sbatch_both+=("${2:?--sbatch needs an sbatch option}"); shift 2 ;;
    --shard-sbatch) sbatch_array+=("${2:?--shard-sbatch needs an sbatch option}"); shift 2 ;;
    --merge-arg) merge_args+=("${2:?--merge-arg needs an option}"); shift 2 ;;
    -h | --help) usage; exit 0 ;;
    --) shift; judge_args=("$@"); break ;;
    -*) usage >&2; die "unknown option $1 (sbatch options go after --sbatch or --shard-sbatch, judge options after --)" ;;
    *) operands+=("$1"); shift ;;
  esac
done
if [ ${#operands[@]} -lt 2 ] || [ ${#operands[@]} -gt 3 ]; then
  usage >&2
  exit 2
fi
submissions=${operands[0]} results=${operands[1]}
if [ ${#operands[@]} -eq 3 ]; then shards=${operands[2]}; fi
if ! [[ $shards =~ ^[0-9]+$ ]] || [ "$shards" -lt 1 ] || [ "$shards" -gt 100000 ]; then
  die "SHARDS must be 1 to 100000, not \"$shards\""
fi

absolute() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
if [ -z "$judge" ]; then judge=$(command -v judge) || die "no judge on PATH: give --judge /path/to/judge (or JUDGE_BIN), a path the compute nodes see"; fi
case $judge in */*) ;; *) judge=$(command -v "$judge") || die "no $judge on PATH" ;; esac
judge=$(absolute "$judge")
[ -x "$judge" ] || die "$judge is not an executable file"
[ -e "$submissions" ] || die "$submissions does not exist"
submissions=$(absolute "$submissions")
results=$(absolute "$results")
# sbatch expands %A, %a, %j... in --output; a literal % in the folder would be taken for one.
case $results in *%*) die "RESULTS may not contain % (sbatch reads it as a file name pattern): $results" ;; esac
mkdir -p "$results/logs"

array=(--array="0-$((shards - 1))" --output="$results/logs/shard-%A_%a.log" "${sbatch_both[@]}" "${sbatch_array[@]}"
  "$here/shard.sbatch" "$judge" "$results" "$shards" "$submissions" "${judge_args[@]}")
# A request no node can meet is queued all the same and stays pending for ever: ask first.
if ! check=$(sbatch --test-only "${array[@]}" 2>&1); then
  die "Slurm cannot run the shards as requested, nothing was submitted: ${check//$'\n'/ }
  (override the defaults with --shard-sbatch, e.g. --shard-sbatch --cpus-per-task=2 --shard-sbatch --gres=gpu:a100:1)"
fi
array_job=$(sbatch --parsable "${array[@]}") || die "sbatch refused the shards; nothing was submitted"
array_job=${array_job%%;*}
merge=(--dependency="afterany:$array_job" --output="$results/logs/merge-%j.log" "${sbatch_both[@]}"
  "$here/merge.sbatch" "$judge" "$results" "${merge_args[@]}")
if ! merge_job=$(sbatch --parsable "${merge[@]}"); then
  die "the shards are job $array_job, but sbatch refused the merge; submit it yourself:$(printf ' %q' sbatch "${merge[@]}")"
fi
merge_job=${merge_job%%;*}
echo "submitted: shards as array job $array_job ($shards tasks), merge as job $merge_job after them; results in $results"
echo "if a task fails or is cancelled, the merge fails (exit 5) naming its students; then:"
echo "  scontrol requeue ${array_job}_TASK      # grades only what that shard is missing"
echo " $(printf ' %q' sbatch --dependency="afterany:$array_job" --output="$results/logs/merge-%j.log" "${sbatch_both[@]}" "$here/merge.sbatch" "$judge" "$results" "${merge_args[@]}")"

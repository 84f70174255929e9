#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Validation of the judge's timing (issue 4, item 7), on a GPU:
#  1. the judge's median for a sample against Nsight Compute's gpu__time_duration of the same
#     kernel, launched by a bare driver (ncu_driver.cu) with ncu's own cache flush before each
#     kernel (--cache-control all) and the clocks left alone (--clock-control none);
#  2. the spread of the judge's median over 5 separate runs (separate processes).
# usage: scripts/bench/validate-timing.sh [JUDGE] [OUT_DIR] [SAMPLE] [KERNEL_REGEX] [TIMING_PROCESSES]
# TIMING_PROCESSES (default 1) is passed to the 5 judge runs as --timing-processes; ncu is skipped
# when it is not 1 (the kernel's ncu time does not depend on it).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
judge=${1:-build/judge}
out=${2:-$(mktemp -d)}
sample=${3:-submissions/10_vectorized.cu}
kernel=${4:-reduceKernel}
processes=${5:-1}
mkdir -p "$out"
nvcc -O2 -o "$out/ncu_driver" scripts/bench/ncu_driver.cu -ldl || exit 1
lib=$("$judge" build "$sample" --arch sm_90 | sed -n 's/^ok: \([^ ]*\).*/\1/p')
for n in 4194304 100000000; do
  [[ $processes == 1 ]] || break
  ncu --clock-control none --cache-control all --metrics gpu__time_duration.sum -k "regex:$kernel" --csv \
      "$out/ncu_driver" "$lib" $n 60 > "$out/ncu-$n.csv" 2> "$out/ncu-$n.err"
  python3 - "$out/ncu-$n.csv" $n <<'PY'
import csv, statistics, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
if not rows:
    sys.exit(f"ncu N={sys.argv[2]}: no measurements (see the .err file)")
head, body = rows[0], rows[1:]
col, unit = head.index("Metric Value"), head.index("Metric Unit")
scale = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}
vals = [float(r[col].replace(",", "")) * scale[r[unit]] for r in body][3:]  # the first calls warm up
print(f"ncu N={sys.argv[2]}: {len(vals)} kernels, gpu__time_duration median {statistics.median(vals):.2f} us, "
      f"min {min(vals):.2f} us, max {max(vals):.2f} us")
PY
done
for i in 1 2 3 4 5; do
  "$judge" run "$sample" --cases perf_4m,perf_100m --timing-processes "$processes" --quiet --format json --out "$out/spread-$i.json" > /dev/null
done
python3 - "$out" "$processes" <<'PY'
import json, statistics, sys
by_case = {}
for i in range(1, 6):
    for c in json.load(open(f"{sys.argv[1]}/spread-{i}.json"))["cases"]:
        t = c.get("timing")
        if t and "unpredictable" not in c["name"]:
            by_case.setdefault(c["name"], []).append(t["device"]["median_ms"] * 1e3)
            s = t.get("samples", {})
            per_variant = {}
            for ms, var in zip(s.get("ms", []), s.get("variant", [])):
                per_variant.setdefault(var, []).append(ms * 1e3)
            print(f"run {i} {c['name']}: median {t['device']['median_ms'] * 1e3:.2f} us, SM clock {t['sm_clock_mhz']:.0f} MHz, "
                  "per input variant " + ", ".join(f"{k}: {statistics.median(v):.2f}" for k, v in sorted(per_variant.items())))
for name, v in by_case.items():
    spread = (max(v) - min(v)) / statistics.median(v) * 100
    print(f"judge, 5 runs, {sys.argv[2]} process(es) each, {name}: medians " + ", ".join(f"{x:.2f}" for x in v) +
          f" us; median of medians {statistics.median(v):.2f} us; (max-min)/median {spread:.2f}%")
PY

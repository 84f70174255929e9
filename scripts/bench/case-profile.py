#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where a batch's time went, per submission and per case (issue 4, judge speed).
usage: case-profile.py BATCH_RESULTS_DIR [TOP]
Reads every submissions/*/report.json; prints per submission the run's seconds split into build,
cases and the rest (worker start, probe, reports), then its TOP slowest cases with their calls."""
import glob
import json
import os
import sys

root = sys.argv[1]
top = int(sys.argv[2]) if len(sys.argv) > 2 else 4
rows = []
for path in sorted(glob.glob(os.path.join(root, "submissions", "*", "report.json"))):
    r = json.load(open(path))
    rows.append(r)
total = 0
print(f"{'submission':<28} {'total':>7} {'build':>6} {'cases':>7} {'other':>6} {'setup':>6} {'prep':>6} {'n':>3}  slowest cases (s, timed samples)")
for r in rows:
    jt = r["judge_time"]
    total += jt["total_seconds"]
    cases = sorted(r["cases"], key=lambda c: -c["seconds"])
    slow = ", ".join(
        f"{c['name']} {c['seconds']:.2f}" + (f" ({c['timing']['device']['samples']}+{c['timing']['warmup_calls']}w)" if c.get("timing") else "")
        for c in cases[:top])
    name = os.path.basename(r["submission"]["path"])
    print(f"{name:<28} {jt['total_seconds']:7.2f} {jt['build_seconds']:6.2f} {jt['cases_seconds']:7.2f} "
          f"{jt['other_seconds']:6.2f} {jt['worker_setup_seconds']:6.2f} {jt['prepare_seconds']:6.2f} {len(r['cases']):3d}  {slow}")
print(f"{'sum of runs':<28} {total:7.2f}")

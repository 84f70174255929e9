#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints the measurement lines of judge JSON reports: per performance case the cold median,
spread, GB/s, % of the measured ceiling, SM clock and hot median; then where the judge's own time
went. usage: summarize.py REPORT.json..."""
import json
import sys


def us(ms):
    return f"{ms * 1e3:9.2f} us"


for path in sys.argv[1:]:
    r = json.load(open(path))
    bw = r.get("bandwidth", {})
    print(f"== {r['submission']['path']}: {r['verdict']}, ceiling {bw.get('ceiling_gbps', 0):.0f} GB/s "
          f"({bw.get('ceiling_source', '')}), judged in {r['seconds']:.2f} s")
    for c in r["cases"]:
        t = c.get("timing")
        if c["kind"] != "performance" or not t:
            continue
        d = t["device"]
        line = (f"  {c['name']:<28} median {us(d['median_ms'])} iqr {us(d['iqr_ms'])} min {us(d['min_ms'])} "
                f"n={d['samples']:<3} noise {100 * d['noise']:.2f}% {t['gbps']:7.0f} GB/s "
                f"{t['pct_of_ceiling'] or 0:5.1f}% ceil, clock {t.get('sm_clock_mhz', 0):.0f} MHz, "
                f"throttled {t.get('throttled_discarded', 0)}")
        overhead = t["audit"].get("overhead_event_ms", 0)
        if overhead:
            line += f", empty window {overhead * 1e3:.2f} us ({100 * overhead / d['median_ms']:.1f}%)"
        if "hot" in t:
            line += f", hot {us(t['hot']['median_ms'])}"
        print(line)
    jt = r.get("judge_time")
    if jt:
        print("  judge time: " + ", ".join(f"{k} {v:.2f}" for k, v in jt.items()))

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One line of profile-catalog.sh's summary from `judge profile --format json`: the verdict, the
finding codes by severity (bottlenecks first) and the headline, or why nothing was profiled.
usage: profile-line.py PROFILE.json"""
import json
import sys

report = json.load(open(sys.argv[1]))
profiles = report.get("profiles") or [{}]
p = profiles[0]
if p.get("status") != "profiled":
    print(f"{report.get('verdict', '?')}, profile {p.get('status', 'missing')}: {p.get('message', '')}")
    sys.exit(0)
d = p.get("diagnosis", {})
codes = {}
for f in d.get("findings", []):
    codes.setdefault(f["severity"], []).append(f["code"])
shown = "; ".join(f"{sev}: {','.join(codes[sev])}" for sev in ("bottleneck", "warning", "info") if sev in codes)
print(f"{report.get('verdict', '?')}, ncu {p.get('seconds', 0):.1f} s, {shown or 'no findings'} | {d.get('headline', '')}")

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The judge's clock against the worker's events, per performance case, for every sample and the
# forging fixtures (docs/results/*judge-clock*.md): one line per submission, per case the fastest
# event time net of the empty window ("events", us), the judge's fastest call net of its fastest
# no-op call ("judge", us), the calibration (fastest no-op call, and its IQR) and FLAG when the
# judge-clock flag fired. Usage: scripts/bench/judge-clock.sh [BUILD_DIR] [FILE...]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=(submissions/*.cu tests/adversarial/forge_clock_stream.cu tests/adversarial/forge_runtime_table.cu)
fi
out=$(mktemp -d)
for f in "${files[@]}"; do
  name=$(basename "$f" .cu)
  # Fixtures share parts (tests/adversarial/parts), inlined as the adversarial test does.
  src="$out/$(basename "$f")"
  python3 scripts/inline-parts.py "$f" "$src"
  "$build/judge" run "$src" --cases performance --format json --out "$out/$name.json" -q >/dev/null 2>&1 || true
  python3 - "$out/$name.json" "$name" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    print(sys.argv[2], "no report:", e); sys.exit(0)
parts = []
for c in r["cases"]:
    t = c.get("timing")
    if not t:
        parts.append(f'{c["name"]}: {c["verdict"]}'); continue
    jc = t["judge_clock"]
    events = min(t["samples"]["ms"]) * 1e3 if t["samples"]["ms"] else 0
    flag = " FLAG" if any("judge's own clock" in f for f in c["flags"]) else ""
    parts.append(f'{c["name"]}: events {events:.1f} judge {jc["ms"]*1e3:.1f} '
                 f'(cal {jc["calibration_ms"]*1e3:.0f}±{jc["spread_ms"]*1e3:.1f}){flag}')
print(sys.argv[2], r["verdict"], "; ".join(parts))
PY
done
rm -rf "$out"

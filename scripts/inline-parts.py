#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes SRC to DST with each line `#include "inline:NAME"` replaced by tests/adversarial/parts/NAME.

A submission is one file (its compiler reads nothing else of its folder), so the forging fixtures
share their parts this way; the adversarial test does the same in C++ (Materialize). With a command
after `--`, runs it with `{}` replaced by DST and exits with its status (CTest's nvcc_compiles).
Usage: inline-parts.py SRC DST [-- COMMAND...]
"""
import pathlib
import re
import subprocess
import sys


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    src, dst = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    parts = pathlib.Path(__file__).resolve().parent.parent / "tests" / "adversarial" / "parts"
    text = re.sub(r'#include "inline:([^"]+)"', lambda m: (parts / m.group(1)).read_text(), src.read_text())
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(text)
    if "--" in argv:
        command = [a.replace("{}", str(dst)) for a in argv[argv.index("--") + 1:]]
        return subprocess.call(command)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

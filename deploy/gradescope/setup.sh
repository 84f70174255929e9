#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Gradescope's image setup (zip the repository with this folder's run_autograder at the top, as
# Gradescope expects). Two ways:
#  - With a judge-service.json at the top of the zip ({"url": ..., "token": ..., "problem": ...}):
#    Gradescope's machine only sends the file to a `judge serve` on a GPU machine. Nothing is built:
#    python3 is all it needs.
#  - Without one: builds and installs the judge here. The image must then have the CUDA Toolkit and
#    an NVIDIA GPU at grading time (a custom image based on nvidia/cuda:13.0.0-devel-ubuntu24.04).
set -euo pipefail
src=/autograder/source
cp "$src/deploy/gradescope/run_autograder" "$src/deploy/gradescope/submit_remote.py" /autograder/
chmod +x /autograder/run_autograder
if [ -f "$src/judge-service.json" ]; then
  command -v python3 >/dev/null || { apt-get update -qq && apt-get install -y -qq python3; }
  exit 0
fi
JUDGE_RUNTIME_ONLY=1 bash "$src/scripts/install-deps.sh"
cmake -S "$src" -B /tmp/judge-build -G Ninja -DJUDGE_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release
cmake --build /tmp/judge-build
cmake --install /tmp/judge-build

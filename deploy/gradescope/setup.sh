#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Gradescope's image setup: builds and installs the judge from this repository (zip the repository
# with this folder's run_autograder at the top, as Gradescope expects). The image must have the
# CUDA Toolkit and an NVIDIA GPU at grading time (Gradescope's GPU autograders, or a custom image
# based on nvidia/cuda:13.0.0-devel-ubuntu24.04).
set -euo pipefail
src=/autograder/source
JUDGE_RUNTIME_ONLY=1 bash "$src/scripts/install-deps.sh"
cmake -S "$src" -B /tmp/judge-build -G Ninja -DJUDGE_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release
cmake --build /tmp/judge-build
cmake --install /tmp/judge-build
cp "$src/deploy/gradescope/run_autograder" /autograder/run_autograder
chmod +x /autograder/run_autograder

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fails when a C++/CUDA source of the repository differs from what .clang-format makes of it, and
# lists the files (apply with: clang-format -i FILE...). Exit 77 (a skip for ctest) without clang-format.
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"
if ! command -v clang-format >/dev/null; then
  echo "check-format: clang-format not found (scripts/install-deps.sh installs it); not checked"
  exit 77
fi
# The judge's own code; not the samples and hostile fixtures, which are submissions as students write them.
mapfile -t files < <(find judge problems tests -type f \( -name '*.h' -o -name '*.cc' -o -name '*.cu' -o -name '*.cuh' \) \
  -not -path 'tests/host_submissions/*' -not -path 'tests/layers/*' \
  \( -not -path 'tests/adversarial/*' -o -name adversarial_test.cc \) | sort)
bad=()
for f in "${files[@]}"; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done
if [ "${#bad[@]}" -gt 0 ]; then
  echo "check-format: ${#bad[@]} of ${#files[@]} files are not formatted as .clang-format says:"
  printf '  %s\n' "${bad[@]}"
  echo "fix with: clang-format -i ${bad[*]}"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"

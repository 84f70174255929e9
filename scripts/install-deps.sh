#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what the judge needs to build and test, from the distribution's packages (Debian 12,
# Ubuntu 22.04/24.04). Used by the README, .ci/run and the Dockerfile alike.
# The CUDA Toolkit (nvcc, cudart) is not installed here: it comes from NVIDIA (the CUDA image,
# or the toolkit installer); the script checks for it and says how to get it.
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config nlohmann-json3-dev libspdlog-dev libcxxopts-dev libgtest-dev libseccomp-dev
  libxml2-utils
  # `judge serve`: its HTTP server, the embedded queue (SQLite) and PostgreSQL's client for many hosts
  libcpp-httplib-dev libsqlite3-dev libpq-dev)
# Test tools: shellcheck and PyYAML (tests/deploy), clang-format (the format test), a PostgreSQL
# server (the serve tests start their own, as an unprivileged user), Selenium, and headless
# Chromium with its driver for the HTML-report and web-page tests; Slurm and munge (tests/slurm
# starts a single-node cluster of its own; their services are not started here); Node.js for the
# Kubernetes schema check, whose npm package (pinned by tests/deploy/k8s/package-lock.json) is
# installed below;
# Debian ships Chromium as a package, Ubuntu as a snap (no snapd in containers), so there that
# test skips and says why. JUDGE_RUNTIME_ONLY=1 leaves them out (the Docker image runs no tests).
if [ "${JUDGE_RUNTIME_ONLY:-0}" != 1 ]; then
  packages+=(shellcheck python3-yaml clang-format postgresql python3-selenium slurm-wlm munge)
  if ! command -v npm >/dev/null; then packages+=(nodejs npm); fi
  # shellcheck disable=SC1091  # os-release is the system's
  . /etc/os-release 2>/dev/null || ID=unknown
  if [ "$ID" = debian ]; then packages+=(chromium chromium-driver); fi
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

if dpkg -s "${packages[@]}" >/dev/null 2>&1; then
  echo "install-deps: packages already installed"
else
  echo "install-deps: installing ${packages[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi

if [ "${JUDGE_RUNTIME_ONLY:-0}" != 1 ]; then
  k8s_check="$(cd "$(dirname "$0")/.." && pwd)/tests/deploy/k8s"
  if [ ! -d "$k8s_check/node_modules/kubernetes-models" ]; then
    echo "install-deps: npm ci in $k8s_check (the Kubernetes API's schemas, for tests/deploy)"
    npm ci --prefix "$k8s_check" --no-audit --no-fund --loglevel=error >/dev/null
  fi
fi

nvcc_path="$(command -v nvcc || true)"
for candidate in "${CUDA_HOME:-}/bin/nvcc" /usr/local/cuda/bin/nvcc; do
  if [ -z "$nvcc_path" ] && [ -x "$candidate" ]; then nvcc_path="$candidate"; fi
done
if [ -z "$nvcc_path" ]; then
  cat >&2 <<'MSG'
install-deps: nvcc not found. Install the CUDA Toolkit (12.x or 13.x) from NVIDIA
  (https://developer.nvidia.com/cuda-downloads), or build inside the nvidia/cuda:*-devel image,
  then put its bin/ on PATH or set CUDA_HOME.
MSG
  exit 1
fi
echo "install-deps: using $nvcc_path ($("$nvcc_path" --version | grep -o 'release [0-9.]*'))"

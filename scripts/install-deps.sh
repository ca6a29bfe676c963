#!/usr/bin/env bash
# Installs what tilekit needs to build and test on Debian 12 (bookworm).
# MLIR/LLVM 22 come from bookworm-security; nothing is downloaded elsewhere.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  zlib1g-dev libzstd-dev
  googletest libgtest-dev libbenchmark-dev
  libopenblas-dev
  python3 python3-numpy python3-torch
  clang-22 libclang-rt-22-dev lld-22
  pybind11-dev python3-dev python3-pytest python3-psutil
  python3-distributed
  chromium
)

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi

missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$pkg")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: everything is installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds tilekit and runs the flagship
# example: the flash-attention kernel is parsed, verified and summarized.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -G Ninja -S . -B build
cmake --build build -j2

echo
echo "== tilekit check examples/flash_attention.mlir"
build/bin/tilekit check examples/flash_attention.mlir
echo
echo "== tilekit-opt examples/flash_attention.mlir (verified and printed)"
build/bin/tilekit-opt examples/flash_attention.mlir

#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds tilekit and runs the flagship
# example: the flash-attention kernel is verified, then executed and checked
# against a NumPy golden.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -G Ninja -S . -B build
cmake --build build -j2

echo
echo "== tilekit check examples/flash_attention.mlir"
build/bin/tilekit check examples/flash_attention.mlir
echo
echo "== tilekit run examples/flash_attention.mlir (sequence length 150)"
demo=$(mktemp -d)
/usr/bin/python3 examples/golden.py flash_attention "$demo" 150
build/bin/tilekit run examples/flash_attention.mlir \
  --input q="$demo/q.npy" --input kt="$demo/kt.npy" --input v="$demo/v.npy" \
  --input o=zeros:150x64:f32 --output o="$demo/o.npy" \
  --expect o="$demo/expected_o.npy" --atol 2e-3 --rtol 1e-2
echo "(output written to $demo/o.npy)"

#!/usr/bin/env bash
# Builds tilekit with AddressSanitizer and UndefinedBehaviorSanitizer in
# build-sanitize/ and runs the whole test suite there; any report fails the
# run (UBSan does not recover, LeakSanitizer is on). Debian's MLIR libraries
# are not instrumented: allow_user_poisoning=0 keeps their container
# annotations from producing false reports at start-up.
set -euo pipefail
cd "$(dirname "$0")/.."

export ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cmake -G Ninja -S . -B build-sanitize -DTILEKIT_SANITIZE=address,undefined
cmake --build build-sanitize -j2
ctest --test-dir build-sanitize --output-on-failure -j2

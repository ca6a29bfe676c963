#!/usr/bin/env bash
# Builds tilekit with clang-22, AddressSanitizer and UndefinedBehaviorSanitizer
# in build-sanitize/ and runs the whole test suite there; any report fails
# the run (UBSan does not recover, LeakSanitizer is on), also one from a
# command a test expects to fail. The same build holds the libFuzzer targets
# (-DTILEKIT_FUZZ=ON; scripts/fuzz.sh runs them). Debian's MLIR libraries are
# not instrumented: allow_user_poisoning=0 keeps their container annotations
# from producing false reports at start-up.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/sanitizer-env.sh "$PWD/build-sanitize/sanitizer-reports"

cmake -G Ninja -S . -B build-sanitize \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DTILEKIT_SANITIZE=address,undefined -DTILEKIT_FUZZ=ON
cmake --build build-sanitize -j2
status=0
ctest --test-dir build-sanitize --output-on-failure -j2 || status=$?
check_sanitizer_reports || status=1
exit $status

#!/usr/bin/env bash
# Builds the executor with ThreadSanitizer in build-tsan/ and runs every test
# that launches cube and vector cores on threads: the cross-core lit tests,
# the mixed and flash-attention examples, split/merge, multi-block launches
# and the group-launch unit tests (not the torch emitter's, which start no
# threads). Any data race or lock-order report fails
# the run, also one from a command a test expects to fail.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/sanitizer-env.sh "$PWD/build-tsan/sanitizer-reports"

cmake -G Ninja -S . -B build-tsan -DTILEKIT_SANITIZE=thread
cmake --build build-tsan -j2 --target tilekit tilekit-opt tilekit-configs InterpTests
status=0
/usr/lib/llvm-22/bin/lit build-tsan/test -sv \
  --filter 'cross-core|mixed|flash|split-merge|groups|blocks|pipe-slots|determinism|threads|examples' \
  --filter-out 'Target/Torch/' || status=$?
build-tsan/unittests/InterpTests --gtest_filter='GroupLaunch*:Footprint*' || status=$?
check_sanitizer_reports || status=1
exit $status

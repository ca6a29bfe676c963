#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS (default 15) on its seed corpus:
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# With FUZZ_RUNS=N each target instead runs N inputs from a fixed seed
# (FUZZ_SEED, default 1): the same inputs on every machine, as CI wants.
# The targets come from the clang build in build-sanitize/ (scripts/sanitize.sh
# configures it with -DTILEKIT_FUZZ=ON). Kernel targets start from every
# example and every `// -----` split of the lit tests (fuzz-verify-each also
# from kernels the random kernel generators write); the readers from
# fuzz/corpus/ and configs/. Prints the executions per target; any crash,
# hang (10 s per input), leak or sanitizer report fails the run and leaves
# the input in build-sanitize/fuzz-findings/. See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-15}
shift || true
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  targets=(fuzz-parse fuzz-run fuzz-emit-torch fuzz-pipeline fuzz-compile
           fuzz-verify-each fuzz-npy fuzz-trace fuzz-config)
fi

build=build-sanitize
cmake --build "$build" -j2 --target tilekit-fuzzers
work="$build/fuzz-work"
findings="$build/fuzz-findings"
rm -rf "$work" "$findings"
mkdir -p "$work" "$findings"

# Every kernel the repository has, one input per `// -----` split.
kernels="$work/kernels"
mkdir -p "$kernels"
find examples test -name '*.mlir' -not -path '*/Inputs/*' -print0 |
  sort -z |
  while IFS= read -r -d '' file; do
    awk -v out="$kernels/$(echo "$file" | tr '/' '_')" '
      /^\/\/ -----/ { part++; next }
      { print > (out "." part+0) }' "$file"
  done

# The random kernel generators' kernels, for the verify-each target.
generated="$work/generated"
/usr/bin/python3 test/Conversion/Inputs/random_vector_kernels.py - "$generated" \
  --count 60 --seed 11 --write-only
/usr/bin/python3 test/Conversion/Inputs/random_group_kernels.py - "$generated" \
  --count 30 --seed 11 --write-only

seeds_for() {
  case "$1" in
  fuzz-verify-each) echo "$kernels" "$generated" ;;
  fuzz-npy) echo fuzz/corpus/npy ;;
  fuzz-trace) echo fuzz/corpus/trace test/Timing/Inputs ;;
  fuzz-config) echo configs test/Timing/Inputs ;;
  *) echo "$kernels" ;;
  esac
}

export ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for target in "${targets[@]}"; do
  corpus="$work/corpus-$target"
  mkdir -p "$corpus"
  log="$work/$target.log"
  # shellcheck disable=SC2046
  if [ -n "${FUZZ_RUNS:-}" ]; then
    budget=(-runs="$FUZZ_RUNS" -seed="${FUZZ_SEED:-1}")
  else
    budget=(-max_total_time="$seconds")
  fi
  if "$build/fuzz/$target" "$corpus" $(seeds_for "$target") \
      "${budget[@]}" -timeout=10 -rss_limit_mb=4096 \
      -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$findings/$target-" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    echo "fuzz: $target: ${runs:-?} inputs, nothing found"
  else
    echo "fuzz: $target: FOUND a problem (input in $findings/):"
    # -a: a kernel's printf may have written any bytes into the log.
    grep -a -E 'ERROR|SUMMARY|runtime error|abort|deadly signal|timeout|memory planning' "$log" | head -20 || true
    echo "fuzz: $target: the log's last lines:"
    tail -n 40 "$log" | cat -v
    status=1
  fi
done
exit $status

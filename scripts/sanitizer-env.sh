# Sourced by the sanitizer scripts: sends every sanitizer report to files in
# $1 (emptied first), so that a report from a command a test expects to fail
# (`not tilekit ...`, whose non-zero exit would hide it) still fails the run;
# check_sanitizer_reports prints them and returns non-zero if there are any.
sanitizer_reports=$1
rm -rf "$sanitizer_reports"
mkdir -p "$sanitizer_reports"
export ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=1:log_path=$sanitizer_reports/asan
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$sanitizer_reports/ubsan
sanitizer_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:log_path=$sanitizer_reports/tsan:suppressions=$sanitizer_scripts/tsan.supp

check_sanitizer_reports() {
  if compgen -G "$sanitizer_reports/*" >/dev/null; then
    cat "$sanitizer_reports"/*
    echo "sanitizer reports in $sanitizer_reports (above)"
    return 1
  fi
}

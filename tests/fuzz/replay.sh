#!/bin/sh
# replay.sh: make check's run of the fuzz targets over their seeds (the
# example, benchmark and test inputs) and over every input a fuzzing run
# found a failure with (tests/fuzz/regressions/TARGET-*).  A target aborts on
# a finding; under the sanitizer build any memory or undefined-behaviour
# error fails it too.
: "${top_srcdir:=.}" "${top_builddir:=.}"
status=0
for target in market portfolio scenarios csv wisdom; do
  prog=$top_builddir/tests/fuzz/fuzz_$target
  set -- "$top_srcdir"/tests/fuzz/regressions/$target-*
  [ -e "$1" ] || set --
  # the seeds: every JSON input of the source tree, whatever it holds (and
  # the CSV target its CSV ones too)
  set -- "$@" "$top_srcdir"/examples/*.json "$top_srcdir"/bench/*.json "$top_srcdir"/tests/data/*.json
  [ "$target" = csv ] && set -- "$@" "$top_srcdir"/examples/*.csv
  if "$prog" "$@" >/dev/null 2>"fuzz_$target.err"; then
    echo "PASS: fuzz_$target over $# inputs"
  else
    echo "FAIL: fuzz_$target"
    cat "fuzz_$target.err"
    status=1
  fi
  rm -f "fuzz_$target.err"
done
exit $status

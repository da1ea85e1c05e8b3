#!/bin/sh
# test_ncu_stalls.sh: bench/ncu_stalls.py (.ci/gpu-steps stalls) on a CSV
# laid out as ncu writes it, the profiled program's lines before and among
# its rows: launches summed by kernel, the stalls weighted by instructions;
# a file of no rows an error.  Skipped (77) without Python 3.
top_srcdir=${top_srcdir:-.}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
script=$top_srcdir/bench/ncu_stalls.py
out=$(python3 "$script" "$top_srcdir/tests/data/ncu_stalls.csv") || {
  echo "FAIL: ncu_stalls.py exited $? on tests/data/ncu_stalls.csv"; exit 1; }
echo "$out"
status=0
expect() { # the row a kernel's table should print
  printf '%s\n' "$out" | grep -qxF "$1" || { echo "FAIL: expected the row: $1"; status=1; }
}
# two launches, 100 and 300 instructions: No Instruction (1 x 100 + 2 x 300) / 400
expect '| mcpi_path_kernel<double, 0, 1, 0, 0, 0, 1> | 2 | 3.000 | 96 | 0.32-1.00 | 25% | 10.00 | 1.75 | 17.5% | 3.50 | - |'
expect '| mcpi_chunk_sums_kernel | 1 | 0.002 | 32 | 0.36-0.36 | 25% | 20.00 | 0.40 | 2.0% | 10.00 | - |'
empty=$(mktemp) || exit 99
echo "no profile here" > "$empty"
if python3 "$script" "$empty" >/dev/null 2>&1; then
  echo "FAIL: a file of no ncu rows was not an error"; status=1
fi
rm -f "$empty"
exit $status

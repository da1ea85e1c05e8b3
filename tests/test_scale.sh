#!/bin/sh
# test_scale.sh: scale-out from the command line.  "mcprice price --slice
# K/N" for N = 1, 2, 3, 7, merged in several orders by "mcprice merge",
# prints the report of the whole run byte for byte (but its time); so does
# --devices (the GPU listed twice, or two CPU workers), with Greeks and a
# scenario grid too; damaged, missing, doubled and foreign partials are
# refused; under MPI (a build with --with-mpi and mpirun present), 1, 2 and
# 3 ranks print the one-process report.  On the default backend: the GPU
# where there is one.

top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
MCPRICE=$top_builddir/src/mcprice
MARKET=$top_srcdir/examples/market.json
BOOK=$top_srcdir/examples/book.json
GRID=$top_srcdir/tests/data/cli_scenarios.json
WISDOM=$top_srcdir/tests/data/cli_wisdom.json
. "$top_srcdir/tests/cli_lib.sh"

# MCP_TEST_PATHS, where set, replaces the paths (CI's sanitizer builds: the
# comparisons are of bytes, whatever the paths)
ARGS="--market $MARKET --portfolio $BOOK --paths ${MCP_TEST_PATHS:-8192}"
# same A B: the reports A and B are the same bytes but for the run's time
same() {
  grep -v -e '^# time ' -e '"seconds": ' "$1" >"$TMP/a" &&
    grep -v -e '^# time ' -e '"seconds": ' "$2" >"$TMP/b" && cmp -s "$TMP/a" "$TMP/b"
}
# slices N [OPTIONS]: the N partials of the run as $TMP/part-K.mcpart
slices() {
  n=$1
  shift
  k=0
  ok=0
  rm -f "$TMP"/part-*.mcpart
  while [ $k -lt "$n" ]; do
    "$MCPRICE" price $ARGS "$@" --slice "$k/$n" --output "$TMP/part-$k.mcpart" 2>"$TMP/err" ||
      ok=1
    k=$((k + 1))
  done
  return $ok
}
# parts ORDER N: the partial files in order forward, backward or odd-first
parts() {
  k=0
  list=
  while [ $k -lt "$2" ]; do
    case $1 in
    forward) list="$list $TMP/part-$k.mcpart" ;;
    backward) list="$TMP/part-$k.mcpart $list" ;;
    *) if [ $((k % 2)) -eq 1 ]; then list="$TMP/part-$k.mcpart $list"; else list="$list $TMP/part-$k.mcpart"; fi ;;
    esac
    k=$((k + 1))
  done
  echo "$list"
}

run price $ARGS
cp "$TMP/out" "$TMP/whole.txt"
check "the whole run prices" 'status 0'
for n in 1 2 3 7; do
  slices $n
  for order in forward backward odd; do
    run merge $(parts $order $n)
    check "$n slices merged $order: the whole run's report" 'status 0 && same "$TMP/out" "$TMP/whole.txt"'
  done
done

# --wisdom changes speed alone and no slice carries it: the merge of slices
# run with it, its file gone, is the whole run's report
cp "$WISDOM" "$TMP/gone.json"
slices 2 --wisdom "$TMP/gone.json"
rm -f "$TMP/gone.json"
run merge $(parts forward 2)
check "2 slices run with --wisdom, its file gone, merge to the whole run's report" '
  status 0 && same "$TMP/out" "$TMP/whole.txt"'

# the report formats and --output of merge
run price $ARGS --format json
cp "$TMP/out" "$TMP/whole.json"
slices 3
run merge --format json --output "$TMP/merged.json" $(parts odd 3)
check "merge --format json --output: the whole run's JSON" '
  status 0 && [ ! -s "$TMP/out" ] && same "$TMP/merged.json" "$TMP/whole.json"'

# Greeks and a scenario grid
run price $ARGS --greeks delta,vega,theta
cp "$TMP/out" "$TMP/whole.txt"
slices 3 --greeks delta,vega,theta
run merge $(parts backward 3)
check "Greeks in 3 slices: the whole run's report" 'status 0 && same "$TMP/out" "$TMP/whole.txt"'
run price $ARGS --scenarios "$GRID" --format csv
cp "$TMP/out" "$TMP/whole.txt"
slices 2 --scenarios "$GRID" --format csv
run merge $(parts backward 2)
check "a scenario grid in 2 slices: the whole run's report (the slices' format)" '
  status 0 && same "$TMP/out" "$TMP/whole.txt"'

# --devices: the default device twice (two CPU workers without a GPU)
run price $ARGS
cp "$TMP/out" "$TMP/whole.txt"
run price $ARGS --devices 0,0
check "--devices 0,0: the one-device report" 'status 0 && same "$TMP/out" "$TMP/whole.txt"'
run price $ARGS --devices all
check "--devices all: the one-device report" 'status 0 && same "$TMP/out" "$TMP/whole.txt"'
run price $ARGS --methods control-variate
cp "$TMP/out" "$TMP/whole-cv.txt"
run price $ARGS --methods control-variate --devices 0,0
check "--devices 0,0 with control variates: the one-device report" '
  status 0 && same "$TMP/out" "$TMP/whole-cv.txt"'
run price $ARGS --devices 0,99
check "--devices with a device that is not there is a usage error" '
  status 2 && err_has "bad --devices value" && err_has "99"'
run price $ARGS --devices 0,x
check "--devices with a word is a usage error" 'status 2 && err_has "devices"'

# refusals
slices 3
run merge "$TMP/part-0.mcpart" "$TMP/part-2.mcpart"
check "a missing slice is named" 'status 1 && err_has "slice 1 of 3 is missing"'
run merge "$TMP/part-0.mcpart" "$TMP/part-1.mcpart" "$TMP/part-1.mcpart" "$TMP/part-2.mcpart"
check "a slice given twice is named" 'status 1 && err_has "slice 1 of 3 is given twice"'
"$MCPRICE" price $ARGS --seed 9 --slice 1/3 --output "$TMP/other.mcpart" 2>/dev/null
run merge "$TMP/part-0.mcpart" "$TMP/other.mcpart" "$TMP/part-2.mcpart"
check "a slice of another seed is refused" 'status 1 && err_has "other.mcpart: was computed from other inputs"'
head -c 1000 "$TMP/part-1.mcpart" >"$TMP/cut.mcpart"
run merge "$TMP/part-0.mcpart" "$TMP/cut.mcpart" "$TMP/part-2.mcpart"
check "a truncated partial is refused" 'status 1 && err_has "cut.mcpart: checksum mismatch"'
cp "$TMP/part-1.mcpart" "$TMP/flip.mcpart"
printf 'Z' | dd of="$TMP/flip.mcpart" bs=1 seek=200 conv=notrunc 2>/dev/null
run merge "$TMP/part-0.mcpart" "$TMP/flip.mcpart" "$TMP/part-2.mcpart"
check "a corrupted partial is refused" 'status 1 && err_has "flip.mcpart: checksum mismatch"'
run merge "$MARKET"
check "a file that is not a partial is refused" 'status 1 && err_has "not a partial result"'
# merge reads a partial's header before its body: a stream that never ends
# is judged on its first bytes (a reader that waits for the end fails the
# timeout)
if command -v mkfifo >/dev/null 2>&1 && mkfifo "$TMP/stream.mcpart" 2>/dev/null &&
  command -v timeout >/dev/null 2>&1; then
  (printf 'not a partial, and more to come'; exec sleep 60) >"$TMP/stream.mcpart" &
  writer=$!
  timeout 20 "$MCPRICE" merge "$TMP/stream.mcpart" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  kill "$writer" 2>/dev/null
  wait "$writer" 2>/dev/null
  check "merge of a stream that is not a partial stops at its header" '
    status 1 && err_has "stream.mcpart: not a partial result of mcprice"'
else
  skip "merge of a stream that is not a partial (no mkfifo or timeout)"
fi
# a partial's carried command names what to price, never another file: one
# that gives --slice or --output (crafted, its checksum recomputed) is refused
if command -v python3 >/dev/null 2>&1; then
  cat >"$TMP/carry.py" <<'EOF'
import struct, sys
src, dst, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
b = open(src, "rb").read()
i = b.index(b"15:mcprice-price/1,")
annex = b[i:i + struct.unpack("<Q", b[i - 8:i])[0]]
items, at = [], 0
while at < len(annex):
    c = annex.index(b":", at)
    n = int(annex[at:c])
    items.append(annex[c + 1:c + 1 + n])
    at = c + 2 + n
count = int(items[1])
args = items[2:2 + count] + [e.encode() for e in extra]
new = b"".join(b"%d:%s," % (len(x), x)
               for x in [items[0], str(len(args)).encode()] + args + items[2 + count:])
body = b[:i - 8] + struct.pack("<Q", len(new)) + new
h = 0xcbf29ce484222325
for c in body:
    h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
open(dst, "wb").write(body + struct.pack("<Q", h))
EOF
  python3 "$TMP/carry.py" "$TMP/part-0.mcpart" "$TMP/sliced.mcpart" --slice 0/1
  run merge --output "$TMP/merged.txt" "$TMP/sliced.mcpart" "$TMP/part-1.mcpart" \
    "$TMP/part-2.mcpart"
  check "a partial whose command gives --slice is refused, nothing written" '
    status 1 && err_has "sliced.mcpart: its price command gives --slice" &&
    [ ! -e "$TMP/merged.txt" ]'
  python3 "$TMP/carry.py" "$TMP/part-0.mcpart" "$TMP/output.mcpart" --output "$TMP/stolen.txt"
  run merge "$TMP/output.mcpart" "$TMP/part-1.mcpart" "$TMP/part-2.mcpart"
  check "a partial whose command gives --output is refused, nothing written" '
    status 1 && err_has "output.mcpart: its price command gives --output" &&
    [ ! -e "$TMP/stolen.txt" ]'
  python3 "$TMP/carry.py" "$TMP/part-0.mcpart" "$TMP/wise.mcpart" --wisdom "$WISDOM"
  run merge "$TMP/wise.mcpart" "$TMP/part-1.mcpart" "$TMP/part-2.mcpart"
  check "a partial whose command gives --wisdom is refused" '
    status 1 && err_has "wise.mcpart: its price command gives --wisdom"'
  python3 "$TMP/carry.py" "$TMP/part-0.mcpart" "$TMP/same.mcpart"
  run merge "$TMP/same.mcpart" "$TMP/part-1.mcpart" "$TMP/part-2.mcpart"
  check "(the crafting itself keeps a partial good)" 'status 0'
else
  skip "partials whose command names other files (no python3 to craft them)"
fi
run merge
check "merge without partials is a usage error" 'status 2 && err_has "expected the partial results"'
cp "$TMP/part-0.mcpart" "$TMP/keep.mcpart"
run merge --output "$TMP/part-0.mcpart" "$TMP/part-0.mcpart" "$TMP/part-1.mcpart" "$TMP/part-2.mcpart"
check "merge --output onto one of its partials is refused, the partial kept" '
  status 2 && err_has "is also the input file .*part-0.mcpart" && cmp -s "$TMP/part-0.mcpart" "$TMP/keep.mcpart"'
run merge --format csv --format json "$TMP/part-0.mcpart"
check "merge --format twice is a usage error" 'status 2 && err_has "given twice"'
run price $ARGS --slice 0/3
check "--slice without --output is a usage error" 'status 2 && err_has "give --output"'
run price $ARGS --slice 3/3 --output "$TMP/x.mcpart"
check "--slice K/N with K >= N is a usage error" 'status 2 && err_has "0 <= K < N"'
run price $ARGS --slice 1 --output "$TMP/x.mcpart"
check "--slice without N is a usage error" 'status 2 && err_has "expected K/N"'
run price $ARGS --slice 0/2 --devices 0 --output "$TMP/x.mcpart"
check "--slice with --devices is a usage error" 'status 2 && err_has "one device"'
run price $ARGS --slice 0/2 --output "$TMP"
check "--slice to a directory fails before the run" 'status 2 && [ ! -e "$TMP/x.mcpart" ]'

# MPI: 1, 2 and 3 ranks (oversubscribed CPU cores where need be)
if "$MCPRICE" info | grep -q "MPI: yes" && command -v mpirun >/dev/null 2>&1; then
  # Under ASan, LeakSanitizer reports OpenMPI's own leaks at exit, from
  # plugins already unloaded: no suppression can name them, so the ranks
  # skip the leak check (every other ASan check stays on).
  MPIRUN="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 mpirun --oversubscribe"
  [ "$(id -u)" = 0 ] && MPIRUN="$MPIRUN --allow-run-as-root"
  run price $ARGS
  cp "$TMP/out" "$TMP/whole.txt"
  for n in 1 2 3; do
    $MPIRUN -n $n "$MCPRICE" price $ARGS >"$TMP/out" 2>"$TMP/err"
    rc=$?
    check "mpirun -n $n: the one-process report" 'status 0 && same "$TMP/out" "$TMP/whole.txt"'
  done
  run price $ARGS --greeks delta,rho
  cp "$TMP/out" "$TMP/whole.txt"
  $MPIRUN -n 2 "$MCPRICE" price $ARGS --greeks delta,rho --output "$TMP/mpi.txt" \
    >"$TMP/out" 2>"$TMP/err"
  rc=$?
  check "mpirun -n 2 --greeks --output: the one-process report, written once" '
    status 0 && [ ! -s "$TMP/out" ] && same "$TMP/mpi.txt" "$TMP/whole.txt"'
  $MPIRUN -n 2 "$MCPRICE" price $ARGS --seed -1 >"$TMP/out" 2>"$TMP/err"
  rc=$?
  check "mpirun -n 2 with a bad option: a usage error" 'status 2 && err_has "seed"'
  $MPIRUN -n 3 "$MCPRICE" price --market "$TMP/none.json" --portfolio "$BOOK" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  check "mpirun -n 3 with a missing file: an input error, no rank left waiting" '
    status 1 && err_has "none.json"'
  # a launcher's tasks that each ask for a slice run as processes of their own
  slices 2
  run price $ARGS
  cp "$TMP/out" "$TMP/whole.txt"
  $MPIRUN -n 2 "$MCPRICE" price $ARGS --slice 1/2 --output "$TMP/part-1.mcpart" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  run merge "$TMP/part-0.mcpart" "$TMP/part-1.mcpart"
  check "mpirun with --slice: a slice of a process of its own" 'status 0 && same "$TMP/out" "$TMP/whole.txt"'
  $MPIRUN -n 2 "$MCPRICE" price $ARGS --output "$MARKET" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  check "mpirun with --output on an input file: a usage error on every rank" 'status 2 && err_has "also the input file"'
else
  skip "mpirun -n 1, 2, 3 (mcprice built without MPI, or no mpirun)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

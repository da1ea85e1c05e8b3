#!/bin/sh
# fuzz.sh BUILD SECONDS: runs the libFuzzer targets built in BUILD (make
# fuzz) side by side for SECONDS of wall-clock time (on fewer cores than
# targets they share them: CI's 2 cores give each of the 5 two fifths of one), each corpus seeded with the source tree's JSON inputs (examples,
# benchmarks, test data, the JSON blocks of doc/input-schema.md), and prints
# a line a target: executions, coverage (libFuzzer's cov and ft), corpus
# size and failures.  A failure's input is kept in fuzz-artifacts/; turn it
# into tests/fuzz/regressions/TARGET-NAME, which make check replays.  Exits
# 1 when any target failed.
set -u
build=$1 secs=$2
src=$build # the build is a configured copy of the release tree
targets="market portfolio scenarios csv wisdom"
mkdir -p fuzz-artifacts
for target in $targets; do
  corpus=fuzz-corpus/$target
  mkdir -p "$corpus"
  cp "$src"/examples/*.json "$src"/bench/*.json "$src"/tests/data/*.json "$corpus"/ 2>/dev/null
  [ "$target" = csv ] && cp "$src"/examples/*.csv "$corpus"/
  # and the examples of the schema's documentation, one file a JSON block
  awk -v dir="$corpus" '/^```json/ { n++; f = dir "/doc-" n ".json"; next }
    /^```/ { f = ""; next } f { print > f }' "$src"/doc/input-schema.md
  ("$build"/tests/fuzz/fuzz_$target -max_total_time="$secs" -timeout=30 -rss_limit_mb=4096 \
     -max_len=65536 -print_final_stats=1 -artifact_prefix=fuzz-artifacts/$target- \
     -dict="$src"/tests/fuzz/json.dict "$corpus" >fuzz-$target.log 2>&1
   echo $? >fuzz-$target.rc) &
done
wait
status=0
printf '| target | seconds | executions | exec/s | cov | ft | corpus | failures |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
for target in $targets; do
  log=fuzz-$target.log
  rc=$(cat fuzz-$target.rc 2>/dev/null || echo 1)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
  ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
  corp=$(echo "$last" | sed -n 's/.*corp: \([0-9]*\).*/\1/p')
  failures=$(ls fuzz-artifacts/$target-* 2>/dev/null | wc -l)
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$target" "$secs" "${execs:-?}" \
    "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$failures"
  if [ "$rc" -ne 0 ] || [ "$failures" -ne 0 ]; then
    status=1
    echo "fuzz_$target failed (exit $rc); its log: $log" >&2
    grep -E 'ERROR|SUMMARY|==[0-9]+==' "$log" | head -20 >&2
  fi
done
exit $status

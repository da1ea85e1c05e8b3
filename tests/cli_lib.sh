# cli_lib.sh: what the command-line tests share, sourced with MCPRICE set:
# a temporary directory $TMP, run (stdout in $TMP/out, stderr in $TMP/err,
# status in $rc) and the checks that judge it.

if [ ! -x "$MCPRICE" ]; then
  echo "SKIP: $MCPRICE is not built"
  exit 77
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test_cli.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' 0
trap 'exit 1' INT TERM HUP

passed=0
failed=0

# run ARGS...: runs mcprice; stdout in $TMP/out, stderr in $TMP/err, status in $rc.
run() {
  "$MCPRICE" "$@" >"$TMP/out" 2>"$TMP/err"
  rc=$?
}
status() { [ "$rc" -eq "$1" ]; }
out_has() { grep -q -e "$1" "$TMP/out"; }
err_has() { grep -q -e "$1" "$TMP/err"; }
# no_temporaries FILE: nothing named FILE.XXXXXX is left behind.
no_temporaries() { ! ls "$1".?????? >/dev/null 2>&1; }

# check DESCRIPTION CONDITION: CONDITION is shell code judging the last run.
check() {
  if eval "$2"; then
    passed=$((passed + 1))
    echo "PASS: $1"
  else
    failed=$((failed + 1))
    echo "FAIL: $1 (exit status $rc)"
    sed 's/^/    stderr: /' "$TMP/err"
  fi
}
skip() { echo "SKIP: $1"; }

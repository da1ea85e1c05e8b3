#!/bin/sh
# test_docs.sh: the documents' outputs are the program's.  Runs the commands
# that README.md and examples/README show and compares what they print with
# the text there; "make check" fails on a difference.
#
#   tests/test_docs.sh            check (make check runs it)
#   tests/test_docs.sh --update   rewrite the documents' blocks from the runs
#                                 (make update-docs; then read the diff)
#
# The blocks are marked (tests/docs_blocks.awk reads them): a line
#   <!-- docs-check: command -->   before the block of a command,
#   <!-- docs-check: output -->    before the block of its whole standard
#                                  output,
#   <!-- docs-check: excerpt -->   before a block of some of its lines, "..."
#                                  standing for lines left out,
# each marker followed by a fenced block (``` to ```) or an indented block
# (to the first line indented less).  An output or excerpt is of the last
# command before it.  A command runs in a directory where examples/, tests/,
# doc/ and bench/ are the source tree's, with ./src/mcprice the build's; it
# fails the test if it exits other than 0.  Every "mcprice price" of a
# checked command says --backend cpu: the CPU backend gives the same bits on
# every machine and for any number of threads (the first output is also run
# with OMP_NUM_THREADS=1), so the comparison is exact, but for two rules:
#   - trailing blanks are ignored;
#   - the value of a "# time" line (the run's wall time) is not compared,
#     and --update keeps the document's.
# In an excerpt, lines not separated by "..." are consecutive in the output.
# MCP_TEST_PATHS, where set (CI's sanitizer build, 5 to 10 times slower),
# replaces every price's paths, and the commands are then only run: their
# outputs are the plain build's to compare.
# --update replaces an output by the run's, and each line of an excerpt by
# the next line of the run with the same first two fields (a trade's row:
# its id and quantity, or its id and Greek).  A block whose command needs
# python3 is skipped without it.
# Run by "make check" with top_srcdir and top_builddir set; exit 77 = skip.

top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
DOCS="README.md examples/README"
update=no
[ "$1" = "--update" ] && update=yes

MCPRICE=$(cd "$top_builddir" && pwd)/src/mcprice
SRC=$(cd "$top_srcdir" && pwd)
AWK=${AWK:-awk}
if [ ! -x "$MCPRICE" ]; then
  echo "SKIP: $MCPRICE is not built"
  exit 77
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test_docs.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' 0
trap 'exit 1' INT TERM HUP
mkdir "$TMP/run" || exit 1
for d in examples tests doc bench; do ln -s "$SRC/$d" "$TMP/run/$d"; done

passed=0
failed=0
skipped=0
pass() { passed=$((passed + 1)); echo "PASS: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL: $1"; }

# the comparison's rules, on a text
normalize() { sed -e 's/[ 	]*$//' -e 's/^\(# time  *\).*/\1(not compared)/' "$1"; }

# run_block CMDFILE OUT THREADS: runs the command; 0, 1 (failed) or 77 (skip)
run_block() {
  if grep -q 'python3' "$1" && ! command -v python3 >/dev/null 2>&1; then
    return 77
  fi
  # (continued lines joined)
  if sed -e :a -e '/\\$/N; s/\\\n//; ta' "$1" | grep 'mcprice price' |
     grep -v -q -e '--backend cpu'; then
    echo "    a checked command runs mcprice price without --backend cpu" >"$2.err"
    return 1
  fi
  # the build's tool for the source tree's ./src/mcprice; MCP_TEST_PATHS,
  # where set, the paths of every price
  if [ -n "$MCP_TEST_PATHS" ]; then
    sed -e 's| --paths [0-9][0-9]*\([ \\]\)|\1|g; s| --paths [0-9][0-9]*$||' \
        -e 's|\./src/mcprice price|& --paths '"$MCP_TEST_PATHS"'|g' "$1"
  else
    cat "$1"
  fi | sed 's|\./src/mcprice|"$MCPRICE"|g' >"$TMP/cmd.sh"
  (cd "$TMP/run" && MCPRICE=$MCPRICE && export MCPRICE &&
   if [ -n "$3" ]; then OMP_NUM_THREADS=$3; export OMP_NUM_THREADS; fi &&
   . "$TMP/cmd.sh") >"$2" 2>"$2.err" || return 1
  return 0
}

# excerpt_matches EXPECTED ACTUAL: the excerpt's lines in order, each run
# between "..." consecutive
excerpt_matches() {
  "$AWK" 'NR == FNR { e[++n] = $0; next }
          { a[++m] = $0 }
          END {
            pos = 0; i = 1
            while (i <= n) {
              if (e[i] == "...") { i++; continue }
              for (j = i; j <= n && e[j] != "..."; j++) ;
              found = 0
              for (p = pos + 1; p + (j - i) - 1 <= m && !found; p++) {
                ok = 1
                for (k = i; k < j && ok; k++) if (a[p + k - i] != e[k]) ok = 0
                if (ok) { found = 1; pos = p + (j - i) - 1 }
              }
              if (!found) { print "    not in the output, in this order: " e[i]; exit 1 }
              i = j
            }
          }' "$1" "$2"
}

# excerpt_update EXPECTED ACTUAL: the excerpt with each line the run's line
# of the same first two fields (the same line where the run still has it:
# several lines may share their first two fields)
excerpt_update() {
  "$AWK" 'function trim(s) { sub(/[ \t]*$/, "", s); return s }
          NR == FNR { e[++n] = $0; next }
          { a[++m] = $0 }
          END {
            pos = 0
            for (i = 1; i <= n; i++) {
              if (e[i] == "...") { print e[i]; continue }
              split(e[i], f)
              for (p = pos + 1; p <= m; p++)
                if (trim(a[p]) == trim(e[i])) break
              if (p > m)
                for (p = pos + 1; p <= m; p++) {
                  split(a[p], g)
                  if (g[1] == f[1] && g[2] == f[2]) break
                }
              if (p > m) { print "no line of the run starts \"" f[1] " " f[2] "\"" > "/dev/stderr"; exit 1 }
              print a[p]; pos = p
            }
          }' "$1" "$2"
}

# output_update EXPECTED ACTUAL: the run's output, the document's "# time" line kept
output_update() {
  "$AWK" 'NR == FNR { if ($0 ~ /^# time /) t = $0; next }
          { sub(/[ \t]*$/, "") }
          /^# time / && t != "" { print t; next }
          { print }' "$1" "$2"
}

first_output=yes
for doc in $DOCS; do
  d=$TMP/$(echo "$doc" | tr / _)
  mkdir "$d" || exit 1
  "$AWK" -v mode=extract -v dir="$d" -f "$SRC/tests/docs_blocks.awk" "$SRC/$doc" || {
    fail "$doc: its docs-check markers"; continue; }
  n=1
  cmd=
  changed=no
  while [ -f "$d/$n.meta" ]; do
    read kind start last ind <"$d/$n.meta"
    where="$doc:$start"
    case $kind in
    command)
      cmd=$d/$n.text
      cmd_out=$d/$n.out
      cmd_rc=
      ;;
    output|excerpt)
      if [ -z "$cmd" ]; then
        fail "$where: an $kind without a command before it"
        n=$((n + 1)); continue
      fi
      if [ -z "$cmd_rc" ]; then
        run_block "$cmd" "$cmd_out" ""
        cmd_rc=$?
      fi
      if [ "$cmd_rc" = 77 ]; then
        skipped=$((skipped + 1)); echo "SKIP: $where: the command needs python3"
        n=$((n + 1)); continue
      fi
      if [ "$cmd_rc" != 0 ]; then
        fail "$where: the command failed:"; sed 's/^/    /' "$cmd" "$cmd_out.err"
        n=$((n + 1)); continue
      fi
      if [ -n "$MCP_TEST_PATHS" ]; then
        pass "$where: the command runs (at MCP_TEST_PATHS's paths: not compared)"
        n=$((n + 1)); continue
      fi
      normalize "$d/$n.text" >"$d/$n.expected"
      normalize "$cmd_out" >"$d/$n.actual"
      if [ "$update" = yes ]; then
        if [ "$kind" = output ]; then
          output_update "$d/$n.text" "$cmd_out" >"$d/$n.new"
        else
          excerpt_update "$d/$n.text" "$cmd_out" >"$d/$n.new" || {
            fail "$where: cannot update the excerpt: edit it"; rm -f "$d/$n.new"; }
        fi
        if [ -f "$d/$n.new" ] && ! cmp -s "$d/$n.new" "$d/$n.text"; then
          changed=yes; echo "UPDATE: $where"
        else
          rm -f "$d/$n.new"
        fi
      elif [ "$kind" = output ]; then
        if diff -u "$d/$n.expected" "$d/$n.actual" >"$d/$n.diff"; then
          pass "$where: the output of the command"
        else
          fail "$where: the output differs (make update-docs refreshes it):"
          sed 's/^/    /' "$d/$n.diff"
        fi
      else
        if excerpt_matches "$d/$n.expected" "$d/$n.actual" >"$d/$n.diff"; then
          pass "$where: the excerpt of the command's output"
        else
          fail "$where: the excerpt is not the output's (make update-docs refreshes it):"
          cat "$d/$n.diff"
        fi
      fi
      # any thread count gives these bits
      if [ "$first_output" = yes ] && [ "$kind" = output ] && [ "$update" = no ]; then
        first_output=no
        if run_block "$cmd" "$TMP/one_thread" 1; then
          normalize "$TMP/one_thread" >"$TMP/one_thread.n"
          if cmp -s "$TMP/one_thread.n" "$d/$n.actual"; then
            pass "$where: the same output on one thread"
          else
            fail "$where: one thread gives another output"
          fi
        else
          fail "$where: the command failed on one thread"
        fi
      fi
      ;;
    esac
    n=$((n + 1))
  done
  if [ "$n" = 1 ]; then
    fail "$doc: no docs-check block"
  fi
  if [ "$update" = yes ] && [ "$changed" = yes ]; then
    "$AWK" -v mode=replace -v dir="$d" -f "$SRC/tests/docs_blocks.awk" "$SRC/$doc" >"$d/doc.new" &&
      cat "$d/doc.new" >"$SRC/$doc" && echo "updated $doc"
  fi
done

echo "docs: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

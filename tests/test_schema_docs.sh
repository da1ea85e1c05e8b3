#!/bin/sh
# test_schema_docs.sh: the JSON examples of doc/input-schema.md are read, and
# priced, by the program, so that they cannot drift from what it accepts.
# A line
#   <!-- docs-check: json KIND NAME -->
# comes before each checked ```json block; KIND says what the block is and
# how it runs (with ./src/mcprice, --backend cpu, few paths):
#   market NAME      a market file, kept as NAME: a European on each of its
#                    underlyings is priced in it
#   underlying       an underlying object: in a market of its own, likewise
#   portfolio NAME   a portfolio file, priced in market NAME
#   trade NAME       a trade object, alone in a portfolio, likewise
#   fixings NAME     a "fixings" member: an Asian on ACME's, likewise
#   scenarios NAME   a scenario file: a European on ACME under it, likewise
#   quotes NAME      a quotes file: a Heston model fitted to it in NAME
# A block that needs what the build lacks (QMC without cuRAND) is skipped.
# The market "examples" is examples/market.json.
# Run by "make check" with top_srcdir and top_builddir set; exit 77 = skip.

top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
MCPRICE=$top_builddir/src/mcprice
DOC=$top_srcdir/doc/input-schema.md
if [ ! -x "$MCPRICE" ]; then
  echo "SKIP: $MCPRICE is not built"
  exit 77
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test_schema_docs.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' 0
trap 'exit 1' INT TERM HUP

# Each checked block into $TMP/block.N, its marker's words into $TMP/kind.N.
awk -v dir="$TMP" '
  /<!-- docs-check: json / { n++; k = $0; sub(/.*docs-check: json /, "", k);
                             sub(/ *-->.*/, "", k); print k > (dir "/kind." n);
                             print NR > (dir "/line." n); want = 1; next }
  want && /^```json/ { inside = 1; want = 0; next }
  inside && /^```/ { inside = 0; next }
  inside { print > (dir "/block." n) }
  END { print n + 0 > (dir "/count") }' "$DOC"

price() { "$MCPRICE" price --backend cpu --paths 2000 "$@" >"$TMP/out" 2>"$TMP/err"; }
# A European on each underlying named in file $1, into $2.
europeans() {
  grep -o '"name": *"[^"]*"' "$1" | sed 's/.*"\([^"]*\)"$/\1/' |
    awk 'BEGIN { printf "{\"trades\": [" }
         { printf "%s{\"id\": \"E%d\", \"product\": \"european\", \"type\": \"call\", \"underlying\": \"%s\", \"strike\": 100, \"maturity\": 1}", (NR > 1 ? ", " : ""), NR, $1 }
         END { print "]}" }' >"$2"
}
wrap() { { printf '%s' "$1"; cat "$2"; printf '%s\n' "$3"; } >"$4"; }

cp "$top_srcdir/examples/market.json" "$TMP/market.examples" || exit 1
passed=0
failed=0
skipped=0
n=$(cat "$TMP/count")
[ "$n" -gt 0 ] || { echo "FAIL: no checked block in $DOC"; exit 1; }
i=1
while [ "$i" -le "$n" ]; do
  read -r kind name <"$TMP/kind.$i"
  b=$TMP/block.$i m=$TMP/market.$name
  case $kind in
  market) cp "$b" "$m" && europeans "$b" "$TMP/book.json" &&
          price --market "$b" --portfolio "$TMP/book.json" ;;
  underlying) wrap '{"rate": 0.03, "underlyings": [' "$b" ']}' "$TMP/und.json" &&
              europeans "$b" "$TMP/book.json" &&
              price --market "$TMP/und.json" --portfolio "$TMP/book.json" ;;
  portfolio) price --market "$m" --portfolio "$b" ;;
  trade) wrap '{"trades": [' "$b" ']}' "$TMP/book.json" &&
         price --market "$m" --portfolio "$TMP/book.json" ;;
  fixings) wrap '{"trades": [{"id": "A", "product": "asian", "average": "arithmetic", "type": "call", "underlying": "ACME", "strike": 100, ' \
                "$b" '}]}' "$TMP/book.json" &&
           price --market "$m" --portfolio "$TMP/book.json" ;;
  scenarios) printf '%s\n' '{"trades": [{"id": "E", "product": "european", "type": "call", "underlying": "ACME", "strike": 100, "maturity": 1}]}' >"$TMP/book.json" &&
             price --market "$m" --portfolio "$TMP/book.json" --scenarios "$b" ;;
  quotes) "$MCPRICE" calibrate --market "$m" --quotes "$b" >"$TMP/out" 2>"$TMP/err" ;;
  *) echo "unknown kind '$kind'" >"$TMP/err"; false ;;
  esac
  if [ $? -eq 0 ]; then
    passed=$((passed + 1))
    echo "PASS: $DOC:$(cat "$TMP/line.$i"): $kind $name"
  elif grep -q 'which this build lacks' "$TMP/err"; then # QMC without cuRAND
    skipped=$((skipped + 1))
    echo "SKIP: $DOC:$(cat "$TMP/line.$i"): $kind $name: $(cat "$TMP/err")"
  else
    failed=$((failed + 1))
    echo "FAIL: $DOC:$(cat "$TMP/line.$i"): $kind $name"
    sed 's/^/    /' "$TMP/err"
  fi
  i=$((i + 1))
done
echo "schema docs: $passed passed, $failed failed, $skipped skipped (what this build lacks)"
[ "$failed" -eq 0 ]

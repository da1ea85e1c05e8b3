#!/bin/sh
# test_cli.sh: end-to-end checks of the mcprice command: options, exit
# statuses, messages, report formats and the --output file handling.
# Run by "make check" with top_srcdir and top_builddir set; exit 77 = skip.

top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
MCPRICE=$top_builddir/src/mcprice
DATA=$top_srcdir/tests/data
MARKET=$DATA/cli_market.json
BOOK=$DATA/cli_portfolio.json
BAD=$DATA/cli_bad_portfolio.json
UNKNOWN=$DATA/cli_unknown_underlying.json
HESTON=$DATA/cli_heston_market.json     # ACME under Heston
METHODS=$DATA/cli_methods_portfolio.json # cli_portfolio.json with run.methods
PDE=$DATA/cli_pde_portfolio.json         # grid and Monte Carlo trades
ARRAYS=$DATA/cli_array_portfolio.json    # products with per-path arrays
FRTB=$DATA/cli_frtb_market.json          # cli_market.json with currencies and FRTB buckets
NTRADES=3 # trades in cli_portfolio.json
CSV_HEADER='id,quantity,price,std_error,ci95_low,ci95_high,value,method'

. "$top_srcdir/tests/cli_lib.sh"

# ---- help and version ---------------------------------------------------------
run --help
check "--help exits 0 and mentions price" 'status 0 && out_has "price"'
run -h
check "-h exits 0" 'status 0 && out_has "Usage"'
run help price
check "help price shows the price options" 'status 0 && out_has "--portfolio"'
run price --help
check "price --help exits 0" 'status 0 && out_has "--tile-paths"'
run --version
check "--version prints mcprice VERSION" 'status 0 && out_has "^mcprice [0-9][0-9.]*$"'

# Every option of --help is in the man page, and every option there in --help.
man=$top_srcdir/doc/mcprice.1
if [ -f "$man" ]; then
  "$MCPRICE" --help | grep -o -e '--[a-z][a-z-]*' | sort -u >"$TMP/help_opts"
  sed 's/\\-/-/g' "$man" | grep -o -e '--[a-z][a-z-]*' | sort -u >"$TMP/man_opts"
  rc=0
  check "--help and mcprice(1) list the same options" 'cmp -s "$TMP/help_opts" "$TMP/man_opts"'
else
  skip "man page not found"
fi

# ---- usage errors: exit 2 -----------------------------------------------------
run frobnicate
check "unknown command exits 2" 'status 2 && err_has "frobnicate"'
run price --market "$MARKET" --portfolio "$BOOK" --bogus
check "unknown option exits 2" 'status 2 && err_has "^mcprice: .*--bogus"'
run price --market "$MARKET"
check "missing --portfolio exits 2" 'status 2 && err_has "--portfolio"'
run price --market "$MARKET" --portfolio "$BOOK" --paths abc
check "--paths abc exits 2" 'status 2 && err_has "--paths"'
run price --market "$MARKET" --portfolio "$BOOK" --paths 1
check "--paths 1 exits 2" 'status 2 && err_has "--paths"'
run price --market "$MARKET" --portfolio "$BOOK" --paths 100 --paths 200
check "an option given twice exits 2" 'status 2 && err_has "--paths: given twice"'
run price --market "$MARKET" --portfolio "$BOOK" --buckets
check "--buckets without --greeks exits 2" 'status 2 && err_has "--buckets needs --greeks"'
run price --market "$MARKET" --portfolio "$BOOK" --greeks vega --greek-method bump --buckets
check "--buckets with --greek-method bump exits 2" 'status 2 && err_has "--buckets come by adjoint"'
run price --market "$MARKET" --portfolio "$BOOK" --paths 2 --methods antithetic
check "--paths 2, antithetic: too few for a standard error, a usage error naming the option" \
  'status 2 && err_has "^mcprice: --paths 2: trade .*needs at least 4 paths"'
run price --market "$MARKET" --portfolio "$BOOK" --paths 2001 --methods antithetic
check "--paths 2001, antithetic: odd, a usage error naming the option, not 2002 paths run" \
  'status 2 && err_has "^mcprice: --paths 2001: trade .*(antithetic) needs an even number"'
sed 's/"paths": 20000/"paths": 20001/' "$METHODS" >"$TMP/odd_antithetic.json"
run price --market "$MARKET" --portfolio "$TMP/odd_antithetic.json"
check "run.paths 20001 with run.methods antithetic: exit 1 naming paths and the trade" \
  'status 1 && err_has "paths: trade .*(antithetic) needs an even number of paths.*20001"'
run price --market "$MARKET" --portfolio "$BOOK" --paths 2 --methods control-variate
check "--paths 2 with control variates: too few for a standard error, exit 2" \
  'status 2 && err_has "^mcprice: --paths 2: .*(control variate) needs at least 3 paths"'
run price --market "$MARKET" --portfolio "$BOOK" --format xml
check "--format xml exits 2 listing the formats" 'status 2 && err_has "table, csv, json"'
run price --market "$MARKET" --portfolio "$BOOK" --backend gpu
check "--backend gpu exits 2 listing the backends" 'status 2 && err_has "auto, cpu, cuda"'
run price --market "$MARKET" --portfolio "$BOOK" --block-size 100
check "--block-size 100 exits 2" 'status 2 && err_has "--block-size"'
run price --market "$MARKET" --portfolio "$BOOK" --seed
check "--seed without a value exits 2" 'status 2 && err_has "--seed"'
run price --market "$MARKET" --portfolio "$BOOK" --methods antithetic,sobol
check "--methods sobol exits 2 listing the methods" \
  'status 2 && err_has "antithetic, control-variate, qmc" && err_has "sobol"'
run price --market "$MARKET" --portfolio "$BOOK" --scramblings 1
check "--scramblings 1 exits 2" 'status 2 && err_has "--scramblings" && err_has "2 and 1024"'
run price --market "$MARKET" --portfolio "$BOOK" --regression-paths 100
check "--regression-paths 100 exits 2" \
  'status 2 && err_has "--regression-paths" && err_has "256 to 16777216"'
run price --market "$MARKET" --portfolio "$BOOK" --heston-scheme milstein
check "--heston-scheme milstein exits 2" 'status 2 && err_has "qe or euler"'

# ---- input errors: exit 1 -----------------------------------------------------
run price --market "$TMP/no_such_market.json" --portfolio "$BOOK"
check "missing market file exits 1 naming it" 'status 1 && err_has "no_such_market.json"'
run price --market "$MARKET" --portfolio "$BAD"
check "negative strike exits 1 with file:line:col" \
  'status 1 && err_has "cli_bad_portfolio.json:[0-9][0-9]*:[0-9][0-9]*"'
run price --market "$MARKET" --portfolio "$UNKNOWN"
check "unknown underlying exits 1 naming the portfolio and the trade's line and column" \
  'status 1 && err_has "cli_unknown_underlying.json:4:5: trade .c1.: underlying: .NOSUCH."'

# ---- device errors: exit 3 ----------------------------------------------------
if "$MCPRICE" info 2>/dev/null | grep -q -E '^devices: +0$'; then
  run price --market "$MARKET" --portfolio "$BOOK" --backend cuda
  check "--backend cuda without a GPU exits 3" 'status 3 && err_has "cuda"'
else
  skip "--backend cuda without a GPU (a GPU is present)"
fi

# ---- reports ------------------------------------------------------------------
run price --market "$MARKET" --portfolio "$BOOK"
check "table report" 'status 0 && out_has "^# backend" && out_has "^id  *quantity" &&
  out_has "^TOTAL " && [ "$(grep -c -v "^#" "$TMP/out")" -eq $((NTRADES + 2)) ]'

run price --market "$MARKET" --portfolio "$BOOK" --format csv
cp "$TMP/out" "$TMP/seed7.csv"
check "csv report: header and $NTRADES+1 rows" '
  status 0 && [ "$(head -n 1 "$TMP/out")" = "$CSV_HEADER" ] &&
  [ "$(wc -l <"$TMP/out")" -eq $((NTRADES + 2)) ] && out_has "^TOTAL,,,"'

run price --market "$MARKET" --portfolio "$BOOK" --format json
if command -v python3 >/dev/null 2>&1; then
  check "json report parses" 'status 0 && python3 -c "import json,sys
d = json.load(sys.stdin)
assert len(d[\"trades\"]) == $NTRADES and \"value\" in d[\"total\"]" <"$TMP/out"'
else
  skip "json report parses (no python3)"
fi
check "json reports the file's run.paths" 'status 0 && out_has "\"paths\": 20000,"'

run price --market "$MARKET" --portfolio "$BOOK" --format json --paths 5000
check "--paths overrides run.paths" 'status 0 && out_has "\"paths\": 5000,"'

run price --market "$MARKET" --portfolio "$BOOK" --format csv --seed 7
check "same seed gives identical csv" 'status 0 && cmp -s "$TMP/out" "$TMP/seed7.csv"'
run price --market "$MARKET" --portfolio "$BOOK" --format csv --seed 8
check "--seed changes the prices" 'status 0 && ! cmp -s "$TMP/out" "$TMP/seed7.csv"'

# ---- methods and schemes --------------------------------------------------------
run price --market "$MARKET" --portfolio "$METHODS" --format csv --methods none
check "--methods none overrides run.methods: plain Monte Carlo" \
  'status 0 && cmp -s "$TMP/out" "$TMP/seed7.csv"'
if "$MCPRICE" info | grep -q 'QMC: yes'; then
  run price --market "$MARKET" --portfolio "$BOOK" --format csv \
    --methods antithetic,control-variate,qmc
  cp "$TMP/out" "$TMP/qmc16.csv"
  check "--methods antithetic,control-variate,qmc changes the prices" \
    'status 0 && [ "$(wc -l <"$TMP/out")" -eq $((NTRADES + 2)) ] &&
    ! cmp -s "$TMP/out" "$TMP/seed7.csv"'
  run price --market "$MARKET" --portfolio "$BOOK" --format csv \
    --methods antithetic,control-variate,qmc --scramblings 8
  check "--scramblings 8 changes the QMC prices" \
    'status 0 && [ -s "$TMP/out" ] && ! cmp -s "$TMP/out" "$TMP/qmc16.csv"'
else
  run price --market "$MARKET" --portfolio "$BOOK" --format csv --methods qmc
  check "--methods qmc without cuRAND: a clear error" \
    'status 3 && err_has "QMC takes its Sobol directions from cuRAND" && [ ! -s "$TMP/out" ]'
fi
run price --market "$HESTON" --portfolio "$BOOK" --format csv
cp "$TMP/out" "$TMP/qe.csv"
run price --market "$HESTON" --portfolio "$BOOK" --format csv --heston-scheme euler
check "--heston-scheme euler changes the Heston prices" \
  'status 0 && [ -s "$TMP/out" ] && [ -s "$TMP/qe.csv" ] && ! cmp -s "$TMP/out" "$TMP/qe.csv"'
run price --market "$HESTON" --portfolio "$BOOK" --format csv --heston-scheme qe
check "--heston-scheme qe is the default" 'status 0 && cmp -s "$TMP/out" "$TMP/qe.csv"'
run price --market "$HESTON" --portfolio "$BOOK" --format csv --grid-check off
check "--grid-check off leaves the prices alone" 'status 0 && cmp -s "$TMP/out" "$TMP/qe.csv"'
run price --market "$HESTON" --portfolio "$BOOK" --format json
check "the JSON gives the Heston trades their grid move, not the Black-Scholes one" '
  status 0 && [ "$(grep -c "\"grid_move\": {\"value\": " "$TMP/out")" = 2 ] &&
  grep "\"id\": \"c1\"" "$TMP/out" | grep -q grid_move &&
  ! grep "\"id\": \"g" "$TMP/out" | grep -q grid_move'
run price --market "$HESTON" --portfolio "$BOOK" --format json --grid-check off
check "--grid-check off: no grid move" 'status 0 && ! out_has grid_move'
run price --market "$HESTON" --portfolio "$BOOK" --grid-check maybe
check "--grid-check maybe exits 2 naming on and off" 'status 2 && err_has "expected on or off"'
sed 's/"seed": 7}/"seed": 7, "grid_check": false}/' "$BOOK" > "$TMP/nocheck.json"
run price --market "$HESTON" --portfolio "$TMP/nocheck.json" --format json
check "run.grid_check false: no grid move" 'status 0 && ! out_has grid_move && out_has "\"c1\""'
run price --market "$HESTON" --portfolio "$TMP/nocheck.json" --format json --grid-check on
check "--grid-check on overrides run.grid_check" 'status 0 && out_has grid_move'
sed 's/"seed": 7}/"seed": 7, "grid_check": "no"}/' "$BOOK" > "$TMP/badcheck.json"
run price --market "$HESTON" --portfolio "$TMP/badcheck.json"
check "run.grid_check \"no\" is bad input naming true or false" \
  'status 1 && err_has "grid_check" && err_has "true or false"'

# ---- finite differences -----------------------------------------------------------
# field 8 of the CSV is the method, field 4 the standard error
method_of() { awk -F, -v id="$1" '$1 == id { print $8 }' "$TMP/out"; }
se_of() { awk -F, -v id="$1" '$1 == id { print $4 }' "$TMP/out"; }
run price --market "$MARKET" --portfolio "$PDE" --format csv --backend cpu
cp "$TMP/out" "$TMP/pde.csv"
check "American and method pde trades are priced on the grid, the others by Monte Carlo" '
  status 0 && [ "$(method_of AM-P-100)" = pde ] && [ "$(method_of EU-C-105-PDE)" = pde ] &&
  [ "$(method_of EU-C-105-MC)" = mc ] && [ "$(method_of DO-C-100)" = mc ] &&
  [ "$(se_of AM-P-100)" = 0 ] && [ "$(se_of EU-C-105-MC)" != 0 ]'
run price --market "$MARKET" --portfolio "$PDE" --format csv --backend cpu --pde european,barrier
check "--pde european,barrier moves those products to the grid" '
  status 0 && [ "$(method_of EU-C-105-MC)" = pde ] && [ "$(method_of DO-C-100)" = pde ] &&
  [ "$(awk -F, "\$1 == \"EU-C-105-MC\" { print \$3 }" "$TMP/out")" = \
    "$(awk -F, "\$1 == \"EU-C-105-PDE\" { print \$3 }" "$TMP/out")" ]'
run price --market "$MARKET" --portfolio "$PDE" --format csv --backend cpu --pde-nodes 401 \
  --pde-steps 400
check "--pde-nodes and --pde-steps change the grid prices" '
  status 0 && [ -s "$TMP/out" ] && ! cmp -s "$TMP/out" "$TMP/pde.csv"'
run price --market "$MARKET" --portfolio "$PDE" --format csv --backend cpu --stencil global \
  --coarsening 8
check "--stencil and --coarsening leave the prices alone" 'status 0 && cmp -s "$TMP/out" "$TMP/pde.csv"'
run price --market "$MARKET" --portfolio "$PDE" --pde digital
check "--pde digital exits 2 naming the products" 'status 2 && err_has "european, barrier, american"'
run price --market "$MARKET" --portfolio "$PDE" --stencil-points 7
check "--stencil-points 7 exits 2 naming the field" 'status 2 && err_has "stencil_points"'
run price --market "$MARKET" --portfolio "$PDE" --pde-scheme implicit
check "--pde-scheme implicit exits 2" 'status 2 && err_has "crank-nicolson or explicit"'
run price --market "$MARKET" --portfolio "$PDE" --format csv --stencil-points 5 --pde barrier \
  --backend cpu
check "--stencil-points 5 leaves a barrier it does not fit on Monte Carlo, the rest on the grid" '
  status 0 && [ "$(method_of DO-C-100)" = mc ] && [ "$(method_of AM-P-100)" = pde ] &&
  [ "$(method_of EU-C-105-PDE)" = pde ]'
cat >"$TMP/grid_barrier.json" <<'EOF'
{"run": {"paths": 2000, "seed": 5},
 "trades": [{"id": "DO-PDE", "product": "barrier", "type": "call", "underlying": "ACME",
             "strike": 100, "maturity": 1.0, "barrier_kind": "down-and-out", "barrier": 85,
             "monitoring": "bridge", "method": "pde"}]}
EOF
run price --market "$MARKET" --portfolio "$TMP/grid_barrier.json" --stencil-points 5 --backend cpu
check "a barrier that names method pde on the 5-point stencil is bad input (exit 1)" '
  status 1 && err_has "DO-PDE.*3-point"'
cat >"$TMP/two_models.json" <<'EOF'
{"run": {"paths": 2000, "seed": 5},
 "trades": [{"id": "EU-HESTON", "product": "european", "type": "call", "underlying": "ACME",
             "strike": 100, "maturity": 1.0},
            {"id": "EU-BS", "product": "european", "type": "call", "underlying": "Globex",
             "strike": 50, "maturity": 1.0}]}
EOF
run price --market "$HESTON" --portfolio "$TMP/two_models.json" --format csv --pde european
check "--pde european prices the Black-Scholes European on the grid, the Heston one by Monte Carlo" '
  status 0 && [ "$(method_of EU-HESTON)" = mc ] && [ "$(method_of EU-BS)" = pde ]'

# ---- --output -----------------------------------------------------------------
run price --market "$MARKET" --portfolio "$BOOK" --format csv --output "$TMP/book.csv"
check "--output writes the file, nothing on stdout" '
  status 0 && [ ! -s "$TMP/out" ] && cmp -s "$TMP/book.csv" "$TMP/seed7.csv" &&
  no_temporaries "$TMP/book.csv"'

run price --market "$MARKET" --portfolio "$BOOK" --output "$TMP/no_such_dir/book.csv"
check "--output into a missing directory exits 3, no file" '
  status 3 && [ ! -e "$TMP/no_such_dir" ] && err_has "no_such_dir"'

echo "previous report" >"$TMP/keep.csv"
run price --market "$MARKET" --portfolio "$BAD" --format csv --output "$TMP/keep.csv"
check "--output with bad input keeps the old file" '
  status 1 && [ "$(cat "$TMP/keep.csv")" = "previous report" ] && no_temporaries "$TMP/keep.csv"'
run price --market "$MARKET" --portfolio "$UNKNOWN" --format csv --output "$TMP/keep.csv"
check "--output with a failed run keeps the old file" '
  status 1 && [ "$(cat "$TMP/keep.csv")" = "previous report" ] && no_temporaries "$TMP/keep.csv"'

# a symbolic link is written through; a device is written in place
echo "old" >"$TMP/target.csv"
ln -s target.csv "$TMP/link.csv"
run price --market "$MARKET" --portfolio "$BOOK" --format csv --output "$TMP/link.csv"
check "--output through a symbolic link replaces its target, and the link stays" '
  status 0 && [ -L "$TMP/link.csv" ] && cmp -s "$TMP/target.csv" "$TMP/seed7.csv" &&
  no_temporaries "$TMP/target.csv" && no_temporaries "$TMP/link.csv"'
run price --market "$MARKET" --portfolio "$BOOK" --format csv --output /dev/null
check "--output /dev/null writes to the device, which stays one" 'status 0 && [ -c /dev/null ]'
# a name of an open descriptor is written through it, as the shell opened it
echo "PRECIOUS" >"$TMP/appended.csv"
"$MCPRICE" price --market "$MARKET" --portfolio "$BOOK" --format csv --output /dev/stdout \
  >>"$TMP/appended.csv" 2>"$TMP/err"
rc=$?
check "--output /dev/stdout appends where the shell's >> does, keeping what was there" '
  status 0 && [ "$(head -1 "$TMP/appended.csv")" = PRECIOUS ] &&
  [ "$(tail -n +2 "$TMP/appended.csv" | cmp - "$TMP/seed7.csv" && echo same)" = same ]'
"$MCPRICE" price --market "$MARKET" --portfolio "$BOOK" --format csv --output /dev/stdout \
  2>"$TMP/err" | cat >"$TMP/out"
rc=$?
check "--output /dev/stdout into a pipe" 'status 0 && cmp -s "$TMP/out" "$TMP/seed7.csv"'
ln -s nowhere "$TMP/dangling.csv"
run price --market "$MARKET" --portfolio "$BOOK" --output "$TMP/dangling.csv"
check "--output to a link that leads nowhere exits 2" '
  status 2 && err_has "leads nowhere" && [ ! -e "$TMP/nowhere" ]'
mkdir "$TMP/adir"
run price --market "$MARKET" --portfolio "$BOOK" --output "$TMP/adir"
check "--output to a directory exits 2 before the run, nothing created" '
  status 2 && err_has "is a directory" && [ -z "$(ls "$TMP/adir")" ] && no_temporaries "$TMP/adir"'
cp "$BOOK" "$TMP/book_in.json"
ln -s book_in.json "$TMP/book_link.json"
run price --market "$MARKET" --portfolio "$TMP/book_in.json" --output "$TMP/book_link.json"
check "--output naming an input file (through a link) exits 2 and leaves it alone" '
  status 2 && err_has "is also the input file .*book_in.json" && cmp -s "$TMP/book_in.json" "$BOOK"'
# a descriptor is judged by the file it is open on, not by its name
cp "$MARKET" "$TMP/fd_market.json"
"$MCPRICE" price --market "$TMP/fd_market.json" --portfolio "$BOOK" --output /dev/fd/3 \
  3<>"$TMP/fd_market.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "--output /dev/fd/3 3<>market.json is the market file: exit 2, the market kept" '
  status 2 && err_has "is also the input file .*fd_market.json" &&
  cmp -s "$TMP/fd_market.json" "$MARKET"'
# the longest names: the temporary's name is shortened to fit the folder's
long=$(printf "%0250d" 0)
run price --market "$MARKET" --portfolio "$BOOK" --format csv --output "$TMP/$long"
check "--output with a 250-byte name (the temporary's name shortened to fit)" '
  status 0 && cmp -s "$TMP/$long" "$TMP/seed7.csv" && [ "$(ls "$TMP" | grep -c "^0")" = 1 ]'
rm -f "$TMP/$long"
run price --market "$MARKET" --portfolio "$BOOK" --slice 0/2 --output "$TMP/$long"
check "--slice --output with a 250-byte name" 'status 0 && [ -s "$TMP/$long" ]'
rm -f "$TMP/$long"
# a read-only file: as root (who may write it, as > may), as nobody instead
echo "read-only" >"$TMP/ro.csv"
chmod a-w "$TMP/ro.csv"
AS= RO_MARKET=$MARKET RO_BOOK=$BOOK
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
  chmod 777 "$TMP" # writable to nobody: only the file itself is read-only
  cp "$MARKET" "$TMP/ro_market.json"
  cp "$BOOK" "$TMP/ro_book.json"
  chmod 644 "$TMP/ro_market.json" "$TMP/ro_book.json"
  RO_MARKET=$TMP/ro_market.json RO_BOOK=$TMP/ro_book.json
  # nobody must reach the program (a build under a private home cannot)
  $AS "$MCPRICE" --version >/dev/null 2>&1 || AS=
fi
if [ "$(id -u)" != 0 ] || [ -n "$AS" ]; then
  $AS "$MCPRICE" price --market "$RO_MARKET" --portfolio "$RO_BOOK" --output "$TMP/ro.csv" \
    >"$TMP/out" 2>"$TMP/err"
  rc=$?
  check "--output to a read-only file exits 3, as > would refuse it" '
    status 3 && err_has "Permission denied" && [ "$(cat "$TMP/ro.csv")" = "read-only" ]'
else
  skip "--output to a read-only file (root may write it, as > may; no setpriv)"
fi
# another user's file in a sticky folder, writable but not replaceable:
# refused before the run (it failed after it, at the rename)
if [ "$(id -u)" = 0 ] && [ -n "$AS" ]; then
  mkdir "$TMP/sticky" && chmod 1777 "$TMP/sticky"
  echo "theirs" >"$TMP/sticky/theirs.csv"
  chmod 666 "$TMP/sticky/theirs.csv"
  $AS "$MCPRICE" price --market "$RO_MARKET" --portfolio "$RO_BOOK" \
    --output "$TMP/sticky/theirs.csv" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  check "--output to another user's file in a sticky folder exits 3 before the run" '
    status 3 && err_has "cannot replace it: it belongs to another user in the sticky folder" &&
    [ "$(cat "$TMP/sticky/theirs.csv")" = theirs ] && [ "$(ls -A "$TMP/sticky")" = theirs.csv ]'
else
  skip "--output to another user's file in a sticky folder (needs root and setpriv to set up)"
fi
chmod 700 "$TMP"

run price --market "$MARKET" --portfolio "$BOOK" --placement stack
check "--placement stack exits 2 naming the placements" 'status 2 && err_has "auto, registers, local, shared"'
run price --market "$MARKET" --portfolio "$ARRAYS" --format csv --placement shared
cp "$TMP/out" "$TMP/arrays.csv"
run price --market "$MARKET" --portfolio "$ARRAYS" --format csv --placement registers
check "--placement leaves the prices alone" '
  status 0 && grep -q "^cliquet," "$TMP/out" && cmp -s "$TMP/out" "$TMP/arrays.csv"'
check "an autocallable's redemption probabilities in the CSV" '
  grep -q "^autocall,price," "$TMP/out" && grep -q "^autocall,redemption:0.5," "$TMP/out" &&
  grep -q "^autocall,redemption:1," "$TMP/out"'
# dates equal to 10 digits keep names of their own
sed 's/"fixings": \[0.5, 1\]/"fixings": [0.5, 50, 50.000000002]/' "$ARRAYS" >"$TMP/close_dates.json"
run price --market "$MARKET" --portfolio "$TMP/close_dates.json" --format csv
check "two dates equal to 10 digits are two measures (redemption:50, redemption:50.000000002)" '
  status 0 && grep -q "^autocall,redemption:50," "$TMP/out" &&
  grep -q "^autocall,redemption:50.000000002," "$TMP/out" &&
  [ "$(grep "^autocall,redemption:" "$TMP/out" | cut -d, -f2 | sort -u | wc -l)" = 3 ]'
run price --market "$MARKET" --portfolio "$ARRAYS"
check "the table lists the redemption probabilities" '
  status 0 && out_has "redeems_at" && out_has "^autocall  *0.500000  *0\.[0-9]*  *0\.[0-9]*$"'
run price --market "$MARKET" --portfolio "$ARRAYS" --format json
check "the JSON gives each date its probability" '
  status 0 && out_has "\"redemption\": \[{\"time\": 0.5, \"probability\": 0\.[0-9]*, "'

run price --market "$MARKET" --portfolio "$BOOK" --normals registers
check "--normals registers exits 2 naming the modes" 'status 2 && err_has "fused or stored"'
run price --market "$MARKET" --portfolio "$BOOK" --format csv --normals stored
cp "$TMP/out" "$TMP/stored.csv"
run price --market "$MARKET" --portfolio "$BOOK" --format csv --normals fused
check "--normals leaves the prices alone" 'status 0 && cmp -s "$TMP/out" "$TMP/stored.csv"'

run price --market "$MARKET" --portfolio "$BOOK" --format csv --scenarios "$DATA/cli_scenarios.json"
check "--scenarios writes a row a trade and point, the zero shift equal to the plain run" '
  status 0 && [ "$(grep -c "^c1," "$TMP/out")" = 6 ] && [ "$(grep -c "^TOTAL," "$TMP/out")" = 6 ] &&
  [ "$(awk -F, "\$1 == \"c1\" && \$2 == 0 && \$3 == 0 { print \$6 }" "$TMP/out")" = \
    "$(awk -F, "\$1 == \"c1\" { print \$3 }" "$TMP/seed7.csv")" ]'
run price --market "$MARKET" --portfolio "$BOOK" --scenarios "$DATA/bad_scenarios.json"
check "a bad scenario file exits 1 naming the field" '
  status 1 && err_has "bad_scenarios.json:1:19: spot.kind: expected one of relative, absolute"'

# a scenario set: the base is the plain run, a scenario without shifts loses
# nothing, a loss is the base's value less the scenario's
run price --market "$MARKET" --portfolio "$BOOK" --format csv --scenarios "$DATA/cli_scenario_set.json"
check "a scenario set writes the base and each scenario, the base equal to the plain run" '
  status 0 && [ "$(grep -c ",TOTAL," "$TMP/out")" = 4 ] &&
  [ "$(awk -F, "\$1 == \"base\" && \$2 == \"c1\" { print \$4 }" "$TMP/out")" = \
    "$(awk -F, "\$1 == \"c1\" { print \$3 }" "$TMP/seed7.csv")" ] &&
  [ "$(awk -F, "\$1 == \"flat\" && \$2 == \"TOTAL\" { print \$7 }" "$TMP/out")" = 0 ] &&
  awk -F, "\$2 == \"TOTAL\" { v[\$1] = \$6; l[\$1] = \$7 }
    END { exit !(l[\"crash\"] == v[\"base\"] - v[\"crash\"] && l[\"crash\"] != 0) }" "$TMP/out"'
run price --market "$MARKET" --portfolio "$BOOK" --scenarios "$DATA/cli_scenario_set.json"
check "a scenario set's table ends with its VaR and ES" '
  status 0 && out_has "^flat  *[0-9.]*  *[0-9.]*  *0.000000  *0.000000\$" &&
  out_has "^# historical, level 99%: VaR [0-9.]*, ES [0-9.]*; 97.5%: VaR"'
run price --market "$MARKET" --portfolio "$BOOK" --format json --scenarios "$DATA/cli_scenario_set.json"
check "a scenario set in JSON names its levels" '
  status 0 && out_has "\"risk\": \[{\"level\": 0.99, \"var\": "'
run price --market "$MARKET" --portfolio "$BOOK" --greeks vega --buckets --paths 4000 --backend cpu --format json
check "--buckets: a trade's bucket in JSON, by adjoint" '
  status 0 && out_has "\"vega@(0,inf)\": {\"value\"" && out_has "\"method\": \"adjoint\""'
run price --market "$FRTB" --portfolio "$BOOK" --frtb --paths 2000 --backend cpu --format crif
check "--frtb --format crif: the CRIF header, then a trade's delta" '
  status 0 && out_has "^TradeID,RiskType,Qualifier,Bucket,Label1,Label2,Amount,AmountCurrency\$" &&
  out_has "^c1,EQ_DELTA,ACME,5,,SPOT,[0-9.]*,USD\$" && out_has "^g.put 6m,GIRR_DELTA,EUR,,0.5,," &&
  ! out_has "^TOTAL"'
run price --market "$FRTB" --portfolio "$BOOK" --frtb --paths 2000 --backend cpu --format csv
check "--frtb --format csv: the book as TOTAL, a currency's tenors" '
  status 0 && out_has "^id,risk,qualifier,bucket,label,amount,currency\$" &&
  out_has "^TOTAL,GIRR_DELTA,USD,,30,[-0-9.e]*,USD\$" && out_has "^TOTAL,EQ_CURV,Globex,10,-0.5,"'
cp "$TMP/out" "$TMP/frtb_whole.csv"
for k in 0 1; do
  "$MCPRICE" price --market "$FRTB" --portfolio "$BOOK" --frtb --paths 2000 --backend cpu \
    --slice $k/2 --output "$TMP/frtb_$k.part" 2>/dev/null
done
run merge "$TMP/frtb_0.part" "$TMP/frtb_1.part" --format csv
check "--frtb in two slices merges to the whole run's records, to the bit" '
  status 0 && cmp -s "$TMP/out" "$TMP/frtb_whole.csv"'
sed 's/"frtb_bucket": 10,//' "$FRTB" >"$TMP/no_bucket.json"
run price --market "$TMP/no_bucket.json" --portfolio "$BOOK" --frtb --backend cpu
check "--frtb without an underlying's bucket exits 1 naming it" '
  status 1 && err_has "no_bucket.json: underlying .Globex.: the FRTB view needs its frtb_bucket"'
run price --market "$MARKET" --portfolio "$BOOK" --format crif
check "--format crif without --frtb exits 2" 'status 2 && err_has "--format crif is the FRTB view"'
run price --market "$MARKET" --portfolio "$BOOK" --frtb --greeks delta
check "--frtb with --greeks exits 2" 'status 2 && err_has "--frtb is a run of its own"'
run price --market "$MARKET" --portfolio "$BOOK" --scenarios "$DATA/cli_scenario_set.json" --levels 0.5,0.9 --format json
check "--levels sets the VaR and ES levels" '
  status 0 && out_has "\"risk\": \[{\"level\": 0.5, \"var\": [-0-9.e]*, \"es\": [-0-9.e]*}, {\"level\": 0.9, "'
run price --market "$MARKET" --portfolio "$BOOK" --scenarios "$DATA/cli_scenario_set.json" --levels 0.99,1
check "--levels 1 exits 2 naming the range" 'status 2 && err_has "--levels: expected 1 to 8 comma-separated levels from 0.5 to below 1"'
run price --market "$MARKET" --portfolio "$BOOK" --scenarios "$DATA/cli_scenarios.json" --levels 0.99
check "--levels with a grid exits 2" 'status 2 && err_has "--levels needs a scenario set"'
run price --market "$MARKET" --portfolio "$BOOK" --levels 0.99
check "--levels without --scenarios exits 2" 'status 2 && err_has "--levels needs --scenarios"'

# ---- --plot: a scenario grid's heatmap -------------------------------------------
run price --market "$MARKET" --portfolio "$BOOK" --scenarios "$DATA/cli_scenarios.json" \
  --plot "$TMP/grid.png" --output "$TMP/grid.txt"
# the PNG signature, then IHDR: 13 bytes; the image's width and height, nonzero
check "--plot writes a PNG beside the report" \
  'status 0 && [ -s "$TMP/grid.txt" ] &&
   [ "$(od -An -tx1 -N16 "$TMP/grid.png" | tr -d " \n")" = 89504e470d0a1a0a0000000d49484452 ] &&
   [ "$(od -An -tu1 -j16 -N8 "$TMP/grid.png" | tr -s " " | sed "s/^ //")" != "0 0 0 0 0 0 0 0" ]'
run price --market "$MARKET" --portfolio "$BOOK" --plot "$TMP/none.png"
check "--plot without --scenarios exits 2, nothing written" \
  'status 2 && err_has "--plot draws a scenario grid: give --scenarios" && [ ! -e "$TMP/none.png" ]'
run price --market "$MARKET" --portfolio "$BOOK" --scenarios "$DATA/cli_scenario_set.json" \
  --plot "$TMP/none.png"
check "--plot with a scenario set exits 2" 'status 2 && err_has "is a set of scenarios"'
run price --market "$MARKET" --portfolio "$BOOK" --greeks delta --plot "$TMP/none.png"
check "--plot with --greeks exits 2" 'status 2 && err_has "--plot draws a scenario grid.s report"'
cp "$TMP/grid.png" "$TMP/grid_before.png"
run price --market "$MARKET" --portfolio "$BOOK" --scenarios "$DATA/cli_scenarios.json" \
  --plot "$TMP/grid.png" --output "$TMP/grid.png"
check "--plot on --output's file exits 2, the file untouched" \
  'status 2 && err_has "--plot .*: the report is written there" &&
   cmp -s "$TMP/grid.png" "$TMP/grid_before.png"'
run price --market "$MARKET" --portfolio "$BOOK" --scenarios "$DATA/cli_scenarios.json" \
  --plot "$MARKET"
check "--plot on an input exits 2" 'status 2 && err_has "^mcprice: --plot"'
run price --market "$MARKET" --portfolio "$BOOK" --scenarios "$DATA/cli_scenarios.json" \
  --plot "$TMP/new.out" --output "$TMP/./new.out"
check "--plot on --output's new file exits 2, nothing written" \
  'status 2 && err_has "--plot .*: the report is written there" && [ ! -e "$TMP/new.out" ]'
run price --market "$MARKET" --portfolio "$BOOK" --scenarios "$DATA/bad_scenario_set.json"
check "a bad shift in a scenario set exits 1 naming the scenario and the field" '
  status 1 && err_has "bad_scenario_set.json:1:58: scenarios\[0\].shifts.ACME.spot: scenario .x.: ACME spot shift: expected a relative shift above -1, got -1.5"'
run price --market "$MARKET" --portfolio "$BOOK" --scenarios "$DATA/unknown_scenario_underlying.json"
check "a scenario set naming an underlying the market lacks exits 1 naming the file" '
  status 1 && err_has "unknown_scenario_underlying.json: scenario .x.: underlying .Initech.: expected an underlying of the market"'

# ---- input files that never end, or are not text ---------------------------------
run price --market /dev/zero --portfolio "$BOOK"
check "--market /dev/zero stops at its first byte, a NUL, named" '
  status 1 && err_has "/dev/zero:1:1: a NUL byte; expected JSON text"'
if command -v mkfifo >/dev/null 2>&1 && mkfifo "$TMP/endless.json" 2>/dev/null; then
  # 270 MB of JSON whitespace through a pipe: over the 256 MiB cap
  (yes "                                                               " |
    head -c 270000000 >"$TMP/endless.json") 2>/dev/null &
  run price --market "$TMP/endless.json" --portfolio "$BOOK"
  wait
  check "an input over 256 MiB is refused, named" '
    status 1 && err_has "endless.json: larger than 256 MiB"'
else
  skip "an input over 256 MiB is refused (no mkfifo)"
fi

# every input is read through one bounded reader that stops at a NUL byte:
# the portfolio, and each file a slice carries (a FIFO whose writer holds it
# open after a NUL: a reader that waits for the end fails the timeout)
if command -v mkfifo >/dev/null 2>&1 && mkfifo "$TMP/stalls.json" 2>/dev/null &&
  command -v timeout >/dev/null 2>&1; then
  for what in portfolio slice-market slice-portfolio; do
    (printf '{\n  "x\000'; exec sleep 60) >"$TMP/stalls.json" &
    writer=$!
    case $what in
    portfolio) set -- --market "$MARKET" --portfolio "$TMP/stalls.json" ;;
    slice-market) set -- --market "$TMP/stalls.json" --portfolio "$BOOK" --slice 0/2 \
      --output "$TMP/never.mcpart" ;;
    slice-portfolio) set -- --market "$MARKET" --portfolio "$TMP/stalls.json" --slice 0/2 \
      --output "$TMP/never.mcpart" ;;
    esac
    timeout 20 "$MCPRICE" price "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    kill "$writer" 2>/dev/null
    wait "$writer" 2>/dev/null
    check "$what: a stream's first NUL byte ends the reading, named at its line and column" '
      status 1 && err_has "stalls.json:2:5: a NUL byte; expected JSON text" &&
      [ ! -e "$TMP/never.mcpart" ]'
  done
  set --
else
  skip "streams that stall after a NUL byte (no mkfifo or timeout)"
fi

# ---- warnings and ids beyond ASCII ---------------------------------------------
cat >"$TMP/warn.json" <<'EOF'
{"run": {"paths": 2000, "seed": 3},
 "trades": [{"id": "far", "product": "european", "type": "call", "underlying": "ACME", "strike": 1e6, "maturity": 1},
            {"id": "Zürich-€-call", "product": "european", "type": "call", "underlying": "ACME", "strike": 100, "maturity": 1}]}
EOF
run price --market "$MARKET" --portfolio "$TMP/warn.json"
check "a trade every path pays the same is reported as such, in the table and on stderr" '
  status 0 && out_has "^# warning  far: every path gave the same value" &&
  err_has "warning: trade .far.: every path gave the same value" && ! out_has "warning  Z"'
# the characters up to the end of the quantity column, in a UTF-8 locale
width_before_quantity() {
  grep "^$1" "$TMP/out" | head -1 | sed 's/\(  *1\)  .*/\1/' | LC_ALL=C.UTF-8 wc -m
}
check "ids beyond ASCII line up by characters, not bytes" '
  status 0 && [ "$(width_before_quantity far)" -gt 3 ] &&
  [ "$(width_before_quantity far)" = "$(width_before_quantity Z)" ]'
run price --market "$MARKET" --portfolio "$TMP/warn.json" --greeks delta --format csv
check "the long CSV carries quantity, position value and warnings" '
  status 0 &&
  out_has "^id,measure,value,std_error,ci95_low,ci95_high,method,quantity,position_value,warnings$" &&
  out_has "^far,price,0,0,0,0,mc,1,0,constant$" && out_has "^far,delta,0,0,0,0,pathwise,1,0,$" &&
  awk -F, '"'"'$1 == "TOTAL" && $2 == "value" { ok = $8 == "" && $9 == $3 } END { exit !ok }'"'"' "$TMP/out"'
run price --market "$MARKET" --portfolio "$TMP/warn.json" --format json
check "--format json lists each trade's warnings" '
  status 0 && out_has "\"id\": \"far\".*\"warnings\": \[\"constant\"\]" &&
  out_has "\"warnings\": \[\]"'

# Values that overflow double: Greeks (the gamma of a spot of 1e-300),
# sums of squares (a spot of 1e154: a standard error of 0 and a false
# "constant" warning before), a book of positions of 1e160: exit 1, naming
# the trade (issue 31)
cat >"$TMP/overflow_market.json" <<'EOF'
{"rate": 0.03, "underlyings": [{"name": "TINY", "spot": 1e-300, "volatility": 0.2},
  {"name": "SQ", "spot": 1e154, "volatility": 0.2}, {"name": "N", "spot": 100, "volatility": 0.2}]}
EOF
for case in "TINY 1e-300 1 gamma trade 'T': its gamma" "SQ 1e154 1 delta trade 'T': its price" \
            "N 100 1e160 delta trade 'T', quantity 1e+160"; do
  set -- $case
  printf '{"run": {"paths": 2000}, "trades": [{"id": "T", "product": "european", "type": "call", "underlying": "%s", "strike": %s, "maturity": 1, "quantity": %s}]}\n' \
    "$1" "$2" "$3" >"$TMP/overflow.json"
  what="$1 $2 x $3 with $4"
  shift 4
  want="$*"
  run price --market "$TMP/overflow_market.json" --portfolio "$TMP/overflow.json" --greeks delta,gamma
  check "$what: values that overflow double exit 1 naming the trade" \
    'status 1 && grep -qF "$want" "$TMP/err" && err_has "overflow double"'
done

# ---- a CSV book ---------------------------------------------------------------
run price --market "$top_srcdir/examples/market.json" --portfolio "$top_srcdir/examples/book.csv" --paths 2000 --format csv
check "a CSV book prices" 'status 0 && out_has "^HELIX-EC-80,4,.*,analytic$" && [ "$(grep -c . "$TMP/out")" -eq 6 ]'
printf 'id,product,type,underlying,strike,maturity\nX,european,call,ACME,100,soon\n' >"$TMP/bad.csv"
run price --market "$top_srcdir/examples/market.json" --portfolio "$TMP/bad.csv"
check "a bad CSV cell exits 1 naming row and column" \
  'status 1 && err_has "bad.csv: row 2, column maturity: expected a time in years"'

# ---- calibrate ---------------------------------------------------------------
EXMARKET=$top_srcdir/examples/market.json
QUOTES=$top_srcdir/examples/quotes.json
run calibrate --market "$EXMARKET" --quotes "$QUOTES"
check "calibrate fits Heston to the example surface within a basis point" \
  'status 0 && out_has "^# model      heston" && out_has "^rho  *-0\.69" &&
   awk "/^# rmse/ { exit !(\$3 < 0.01) }" "$TMP/out"'
run calibrate --market "$EXMARKET" --quotes "$QUOTES" --format json --fitted "$TMP/fitted.json"
check "calibrate --format json --fitted" \
  'status 0 && out_has "\"rmse\": " && grep -q "\"model\": \"heston\", \"spot\"" "$TMP/fitted.json"'
run calibrate --market "$EXMARKET" --quotes "$QUOTES" --model merton --fitted "$TMP/merton.json"
check "a Merton ACME, correlated in the market, is refused and nothing written" \
  'status 1 && err_has "ACME. as a merton underlying makes no market: .*correlations" &&
   [ ! -e "$TMP/merton.json" ] && no_temporaries "$TMP/merton.json"'
printf '{"trades": [{"id": "x", "product": "european", "type": "call", "underlying": "ACME", "strike": 100, "maturity": 1, "method": "analytic"}]}\n' >"$TMP/one.json"
run price --market "$TMP/fitted.json" --portfolio "$TMP/one.json"
check "the fitted market prices" 'status 0 && out_has "analytic"'
run calibrate --market "$EXMARKET"
check "calibrate without --quotes exits 2" 'status 2 && err_has "--quotes"'
run calibrate --market "$EXMARKET" --quotes "$QUOTES" --model sabr
check "calibrate --model sabr exits 2" 'status 2 && err_has "--model: expected heston or merton"'
run calibrate --market "$EXMARKET" --quotes "$BOOK"
check "a portfolio as quotes exits 1 naming file and field" \
  'status 1 && err_has "cli_portfolio.json:[0-9]*:[0-9]*: .*unknown field"'
cp "$TMP/fitted.json" "$TMP/kept.json"
run calibrate --market "$EXMARKET" --quotes "$BOOK" --fitted "$TMP/kept.json"
check "a failed calibration leaves --fitted as it was" \
  'status 1 && cmp -s "$TMP/fitted.json" "$TMP/kept.json" && no_temporaries "$TMP/kept.json"'
run calibrate --market "$EXMARKET" --quotes "$QUOTES" --fitted "$QUOTES"
check "--fitted naming an input is refused" 'status 2 && cmp -s "$QUOTES" "$top_srcdir/examples/quotes.json"'

# ---- implied surfaces ------------------------------------------------------
cat >"$TMP/smile.json" <<'JSON'
{"rate": 0.02, "underlyings": [{"name": "ACME", "spot": 100,
 "implied_volatility": {"maturities": [0.5, 1], "strikes": [80, 90, 100, 110, 120],
  "volatilities": [[0.25, 0.22, 0.2, 0.19, 0.19],
                   [0.24, 0.22, 0.28, 0.2, 0.19]]}}]}
JSON
run price --market "$TMP/smile.json" --portfolio "$BOOK"
check "quotes with butterfly arbitrage exit 1 naming the file, maturity and strikes" \
  'status 1 && err_has "smile.json:2:24: underlyings\[0\].implied_volatility: .*maturity 1: the quotes at strikes 90, 100 and 110"'

# ---- seasoned trades ---------------------------------------------------------
printf 'id,product,average,type,underlying,strike,maturity,fixings,past_fixings\nS,asian,arithmetic,call,ACME,95,1,-0.25;0.5;1,98\nT,asian,arithmetic,call,ACME,95,1,-0.5;-0.25;1,\n' >"$TMP/seasoned.csv"
run price --market "$MARKET" --portfolio "$TMP/seasoned.csv"
check "a seasoned Asian without its past spots exits 1 naming the row and column" \
  'status 1 && err_has "seasoned.csv: row 3: missing field .past_fixings. (expected the spots of the fixings on or before the valuation date, one each)"'

# ---- dates back in reports ---------------------------------------------------
cat >"$TMP/autocall.json" <<'JSON'
{"run": {"paths": 2000}, "trades": [{"id": "AC", "product": "autocallable",
 "underlying": "ACME", "initial_fixings": 100, "autocall_level": 1, "coupon": 0.02,
 "fixings": {"first": "2027-02-26", "last": "2027-11-26", "frequency": "quarterly"}}]}
JSON
run price --market "$top_srcdir/examples/dated_market.json" --portfolio "$TMP/autocall.json"
check "an autocallable's redemption dates come back as dates" \
  'status 0 && grep -q "std_error  date$" "$TMP/out" && grep -q "  2027-08-26$" "$TMP/out"'
run price --market "$top_srcdir/examples/dated_market.json" --portfolio "$TMP/autocall.json" \
  --format json
check "and in JSON" 'status 0 && grep -q "\"date\": \"2027-11-26\"" "$TMP/out"'
# an Asian's job first, which slice 0 of 2 would hold alone but for the
# boundaries (then it also runs a chunk of the Bermudan's, and fits its rule)
cat >"$TMP/exercise.json" <<'JSON'
{"run": {"paths": 4000}, "trades": [{"id": "AS", "product": "asian", "average": "arithmetic",
 "type": "call", "underlying": "ACME", "strike": 100,
 "fixings": {"first": "2026-12-01", "last": "2027-11-26", "frequency": "daily"}},
 {"id": "BP", "product": "bermudan", "type": "put",
 "underlying": "ACME", "strike": 100,
 "exercise_dates": {"first": "2027-02-26", "last": "2027-11-26", "frequency": "quarterly"}},
 {"id": "AP", "product": "american", "type": "put", "underlying": "ACME", "strike": 100,
 "maturity": "2027-05-26"}]}
JSON
run price --market "$top_srcdir/examples/dated_market.json" --portfolio "$TMP/exercise.json" \
  --exercise-boundary
check "--exercise-boundary: a rule's boundary at its dates, a grid's from today, the strike last" \
  'status 0 && grep -q "exercise_boundary  date$" "$TMP/out" &&
   grep -q "^BP  *0.997260  *100.000000  2027-11-26$" "$TMP/out" &&
   grep -q "^BP  *0.249315  *[89][0-9].[0-9]*  2027-02-26$" "$TMP/out" &&
   grep -q "^AP  *0.000000  *[78][0-9].[0-9]*  2026-11-27$" "$TMP/out" &&
   [ "$(grep -c "^AP  *[01]\.[0-9]\{6\}  " "$TMP/out")" -eq 403 ]'
run price --market "$top_srcdir/examples/dated_market.json" --portfolio "$TMP/exercise.json" \
  --exercise-boundary --format json
check "and in JSON" 'status 0 &&
  grep -q "\"exercise_boundary\": \[{\"time\": 0.2493150684931506[0-9], \"date\": \"2027-02-26\", \"spot\": " "$TMP/out"'
run price --market "$top_srcdir/examples/dated_market.json" --portfolio "$TMP/exercise.json" \
  --exercise-boundary --format csv
cp "$TMP/out" "$TMP/exercise_whole.csv"
check "and in CSV, a measure a point" 'status 0 && out_has "^BP,exercise_boundary:0.9972602739726028,100,0,100,100,mc,1,,\$"'
for k in 0 1; do
  "$MCPRICE" price --market "$top_srcdir/examples/dated_market.json" \
    --portfolio "$TMP/exercise.json" --exercise-boundary --slice $k/2 \
    --output "$TMP/exercise_$k.part" 2>/dev/null
done
run merge "$TMP/exercise_0.part" "$TMP/exercise_1.part" --format csv
check "two slices merge to the whole run's boundaries, to the bit" '
  status 0 && cmp -s "$TMP/out" "$TMP/exercise_whole.csv" &&
  grep -q "^BP,exercise_boundary:0.2493150684931507,[89][0-9]\." "$TMP/out"'
sed 's/"paths": 4000}/"paths": 4000, "exercise_boundary": "yes"}/' "$TMP/exercise.json" \
  >"$TMP/exercise_bad.json"
run price --market "$top_srcdir/examples/dated_market.json" --portfolio "$TMP/exercise_bad.json"
check "run.exercise_boundary not a boolean exits 1 naming it" \
  'status 1 && err_has "exercise_bad.json:1:46: run.exercise_boundary: expected true or false, got \"yes\""'

# ---- wisdom (mcprice tune, price --wisdom) -----------------------------------
WISDOM=$DATA/cli_wisdom.json # an H200's options for one shape
run price --market "$MARKET" --portfolio "$BOOK" --format csv
cp "$TMP/out" "$TMP/rules.csv"
run price --market "$MARKET" --portfolio "$BOOK" --format csv --wisdom "$WISDOM"
check "--wisdom: the same prices to the bit (the options change speed alone)" '
  status 0 && cmp -s "$TMP/out" "$TMP/rules.csv"'
# each field's refusal names the file, the field and what was expected
while IFS='|' read -r from to field; do
  sed "s/$from/$to/" "$WISDOM" >"$TMP/wisdom_bad.json"
  run price --market "$MARKET" --portfolio "$BOOK" --wisdom "$TMP/wisdom_bad.json"
  check "a wisdom with a bad $field exits 1 naming it" "
    status 1 && err_has 'wisdom_bad.json:[0-9]*:[0-9]*: entries\\[0\\]\\.$field: expected' &&
    [ ! -s \"\$TMP/out\" ]"
done <<'EOF'
"block_size": 256|"block_size": 250|block_size
"tile_paths": 65536|"tile_paths": 100|tile_paths
"prefetch": "smem-rolling"|"prefetch": "fast"|prefetch
"normals": "stored"|"normals": 1|normals
"prefetch_distance": 4|"prefetch_distance": 5|prefetch_distance
"padding": "interleaved"|"padding": 33|padding
"capability": 90|"capability": 9|capability
"driver": 12080|"driver": -1|driver
"seconds": 0.0031|"seconds": -1|seconds
"device": "NVIDIA H200"|"device": ""|device
EOF
sed 's/"mcprice_wisdom": 1/"mcprice_wisdom": 2/' "$WISDOM" >"$TMP/wisdom_bad.json"
run price --market "$MARKET" --portfolio "$BOOK" --wisdom "$TMP/wisdom_bad.json"
check "a wisdom of another format version exits 1 naming it" '
  status 1 && err_has "mcprice_wisdom: expected 1"'
sed 's/"entries": \[/&{"device": "NVIDIA H200", "capability": 90, "driver": 12080, "shape": "double black-scholes plain", "normals": "fused", "prefetch": "none", "prefetch_distance": 4, "padding": 0, "block_size": 128, "tile_paths": 0},/' \
  "$WISDOM" >"$TMP/wisdom_bad.json"
run price --market "$MARKET" --portfolio "$BOOK" --wisdom "$TMP/wisdom_bad.json"
check "a wisdom with one key twice exits 1 naming both entries" '
  status 1 && err_has "entries\[1\]: the same device, capability, driver and shape as entries\[0\]"'
cp "$WISDOM" "$TMP/wisdom_kept.json"
run price --market "$MARKET" --portfolio "$BOOK" --wisdom "$TMP/wisdom_kept.json" \
  --output "$TMP/wisdom_kept.json"
check "--output onto the --wisdom file is refused before the run, the file kept" '
  status 2 && err_has "wisdom" && cmp -s "$WISDOM" "$TMP/wisdom_kept.json"'
run price --market "$MARKET" --portfolio "$BOOK" --wisdom "$TMP/no_such_wisdom.json"
check "a missing wisdom file exits 1 naming it" 'status 1 && err_has "no_such_wisdom.json"'
run help tune
check "help tune shows the tune options" 'status 0 && out_has "--wisdom" && out_has "--repeats"'
run tune --market "$MARKET" --portfolio "$BOOK"
check "tune without --wisdom exits 2" 'status 2 && err_has "--wisdom FILE"'
run tune --market "$MARKET" --portfolio "$BOOK" --wisdom "$TMP/tuned.json" --repeats 16
check "tune --repeats 16 exits 2 naming the range" '
  status 2 && err_has "--repeats: expected an integer from 1 to 15"'
run tune --market "$MARKET" --portfolio "$BOOK" --wisdom "$TMP"
check "tune --wisdom a directory exits before the work, naming it" 'status 2 && err_has "is a directory"'
run tune --market "$MARKET" --portfolio "$BOOK" --wisdom "$TMP/wisdom_bad.json"
check "tune refuses a bad wisdom file before the work, leaving it" '
  status 1 && err_has "entries\[1\]" && grep -q "\"block_size\": 128" "$TMP/wisdom_bad.json"'
if [ "$("$MCPRICE" info | sed -n "s/^devices: *//p")" = 0 ]; then
  cp "$WISDOM" "$TMP/tuned.json"
  run tune --market "$MARKET" --portfolio "$BOOK" --wisdom "$TMP/tuned.json"
  check "tune without a GPU exits 3 saying so, the wisdom file left" '
    status 3 && err_has "tune: the kernel options are a GPU" && cmp -s "$WISDOM" "$TMP/tuned.json"'
else
  run tune --market "$MARKET" --portfolio "$BOOK" --wisdom "$TMP/tuned.json" --repeats 1
  check "tune on the GPU writes a wisdom that price reads, the same prices" '
    status 0 && out_has "^GPU: " && out_has "^double black-scholes" &&
    "$MCPRICE" price --market "$MARKET" --portfolio "$BOOK" --format csv \
      --wisdom "$TMP/tuned.json" >"$TMP/tuned.csv" && cmp -s "$TMP/tuned.csv" "$TMP/rules.csv"'
fi

# A signal while pricing: the run stops within a tile, writes nothing and
# ends by the signal, as a shell expects (SIGTERM: a background job of a
# script ignores SIGINT, and the tool leaves an ignored signal so); a Heston
# book of 2^24 paths of 1,000 steps a year, minutes on the CPU
sed 's/"paths": [0-9]*/"paths": 16777216, "steps_per_year": 1000/' "$BOOK" >"$TMP/long.json"
"$MCPRICE" price --market "$HESTON" --portfolio "$TMP/long.json" --backend cpu \
  --output "$TMP/interrupted.csv" >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 2
kill -TERM $pid
start=$(date +%s)
wait $pid
rc=$?
check "SIGTERM while pricing stops at once, writes nothing, ends by the signal" '
  status 143 && [ $(($(date +%s) - start)) -le 2 ] && err_has "interrupted" &&
  [ ! -e "$TMP/interrupted.csv" ] && no_temporaries "$TMP/interrupted.csv"'

if [ -w /dev/full ]; then
  "$MCPRICE" price --market "$MARKET" --portfolio "$BOOK" >/dev/full 2>"$TMP/err"
  rc=$?
  check "a failed write to stdout exits 3" 'status 3'
else
  skip "a failed write to stdout exits 3 (no /dev/full)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

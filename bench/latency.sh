#!/bin/sh
# latency.sh [BACKEND]: the per-call tax of issue 31, run from the build
# tree (make bench-latency): warm mcp_price on the example book by product
# family and whole, grid books of one to 10,000 American puts at three grid
# sizes, and whole processes of the CLI beside "mcprice info" (the CUDA
# initialisation and the tool's start alone).  Markdown tables on stdout.
set -eu
srcdir=${srcdir:-.}
backend=${1:-auto}
lat=./bench/latency
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
market=$srcdir/examples/market.json
book=$srcdir/examples/book.json

# the example book's trades by product (grid trades apart), and grid books
python3 - "$book" "$tmp" <<'EOF'
import json, sys
book = json.load(open(sys.argv[1])); out = sys.argv[2]
run = book.get("run", {})
fams = {}
for t in book["trades"]:
    grid = t.get("method") == "pde" or (t["product"] == "american" and t.get("method") != "mc")
    fams.setdefault(t["product"] + (" (grid)" if grid else ""), []).append(t)
for name, trades in fams.items():
    json.dump({"run": run, "trades": trades}, open("%s/fam-%s.json" % (out, name.replace(" ", "_")), "w"))
one = [t for t in book["trades"] if t["id"] == "ACME-AMP-100"]
for n, m in ((801, 800), (401, 400), (201, 200)):
    r = dict(run, pde={"scheme": "crank-nicolson", "space_points": n, "time_steps": m})
    json.dump({"run": r, "trades": one}, open("%s/one-%d.json" % (out, n), "w"))
# American puts on one underlying: strikes 80 to 120 by maturities 0.25 to 2
json.dump({"underlyings": [{"name": "S", "spot": 100, "rate": 0.05, "dividend": 0.02,
                            "volatility": 0.25}]}, open(out + "/amer_market.json", "w"))
for k in (10, 100):
    puts = [{"id": "P%d-%d" % (i, j), "product": "american", "type": "put", "underlying": "S",
             "strike": round(80 + 40 * i / (k - 1), 4), "maturity": round(0.25 + 1.75 * j / (k - 1), 4)}
            for i in range(k) for j in range(k)]
    for n, m in ((401, 400), (201, 200)):
        json.dump({"run": {"pde": {"scheme": "crank-nicolson", "space_points": n, "time_steps": m}},
                   "trades": puts}, open("%s/amer-%d-%d.json" % (out, k * k, n), "w"))
EOF

echo "### warm mcp_price ($backend): medians of 9 after 2 warm-ups"
echo
echo "| book | trades | paths | wall ms | library ms | fastest ms |"
echo "|---|---:|---:|---:|---:|---:|"
for paths in 1000 200000; do
  $lat --market "$market" --portfolio "$book" --paths $paths --backend "$backend" \
    --label "example book" || exit 1
done
for f in "$tmp"/fam-*.json; do
  name=$(basename "$f" .json)
  $lat --market "$market" --portfolio "$f" --paths 1000 --backend "$backend" \
    --label "${name#fam-}" || exit 1
done
for n in 801 401 201; do
  $lat --market "$market" --portfolio "$tmp/one-$n.json" --backend "$backend" \
    --label "one grid American, $n nodes" || exit 1
done
for f in "$tmp"/amer-*.json; do
  name=$(basename "$f" .json)
  $lat --market "$tmp/amer_market.json" --portfolio "$f" --backend "$backend" --repeats 5 \
    --label "American puts, ${name#amer-} (trades-nodes)" || exit 1
done

echo
echo "### whole processes (wall seconds, best of 3)"
echo
echo "| command | seconds |"
echo "|---|---:|"
best() { # best of 3 wall clocks of a command
  b=
  for i in 1 2 3; do
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
    t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
  done
  echo "$b"
}
echo "| mcprice info | $(best ./src/mcprice info) |"
for paths in 1000 200000; do
  echo "| mcprice price, example book, $paths paths | $(best ./src/mcprice price --market "$market" \
    --portfolio "$book" --paths $paths --backend "$backend") |"
done

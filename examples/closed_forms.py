#!/usr/bin/env python3
"""closed_forms.py: the example book's trades that have a closed form,
against the prices of an mcprice run.

    ./src/mcprice price --market examples/market.json --portfolio examples/book.json \\
        --backend cpu --paths 20000 --format csv \\
      | python3 examples/closed_forms.py examples/market.json examples/book.json

reads the run's CSV report on standard input and prints, for every trade of
the book that has an exact formula here, the formula's price, the run's
price and standard error and z = (run - formula) / std_error; a grid (pde)
trade, which has no standard error, its relative error instead.  The
formulas, written from the literature and independent of the library:

  Europeans on Black-Scholes underlyings    Black-Scholes
  cash- and asset-or-nothing digitals       Black-Scholes
  geometric Asians, fixed strike            the log-normal law of the
                                            discrete geometric mean
  Europeans on Merton underlyings           Merton's series of
                                            Black-Scholes prices

on flat rates, dividend yields and volatilities (a Merton rate curve is
integrated exactly).  It exits 1 when some |z| exceeds 4 or some grid price
misses by more than a relative 1e-4, else 0.  Python 3, standard library
only.
"""
import csv
import json
import math
import sys
from typing import Any, Dict, List, Optional, Sequence

# a market's or trade's JSON object
Json = Dict[str, Any]

Z_LIMIT = 4.0
GRID_LIMIT = 1e-4


def ncdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def black(forward: float, strike: float, var: float, discount: float, call: bool) -> float:
    """discount x E[(F e^{X} - K)+] with X ~ N(-var/2, var), or the put."""
    sd = math.sqrt(var)
    d1 = (math.log(forward / strike) + var / 2) / sd
    d2 = d1 - sd
    if call:
        return discount * (forward * ncdf(d1) - strike * ncdf(d2))
    return discount * (strike * ncdf(-d2) - forward * ncdf(-d1))


def rate_integral(market: Json, u: Json, t: float) -> float:
    """The integral of the underlying's rate from 0 to t: its piecewise
    constant curve (flat beyond its last end), else its rate, else the
    market's."""
    curve = u.get("curves", {}).get("rate")
    if curve is None:
        rate: float = u["rate"] if "rate" in u else market["rate"]
        return rate * t
    total, start = 0.0, 0.0
    for end, value in zip(curve["end"], curve["value"]):
        e = float(end)
        total += float(value) * (min(e, t) - start)
        start = e
        if e >= t:
            return total
    return total + float(curve["value"][-1]) * (t - start)


def fixing_times(f: Any) -> List[float]:
    if isinstance(f, list):
        return [float(x) for x in f]
    n = f["count"]
    return [f["first"] + (f["last"] - f["first"]) * i / (n - 1) for i in range(n)]


def closed_form(market: Json, trade: Json) -> Optional[float]:
    """The trade's price by formula, or None where none applies here."""
    unders = {u["name"]: u for u in market["underlyings"]}
    u = unders.get(trade.get("underlying"))
    if u is None or trade.get("strike_kind", "fixed") != "fixed":
        return None
    model = u.get("model", "black-scholes")
    flat = "curves" not in u and "dividends" not in u
    product, call = trade["product"], trade.get("type") == "call"
    if not isinstance(u.get("spot"), (int, float)) or not isinstance(trade.get("strike"),
                                                                      (int, float)):
        return None
    s, k = float(u["spot"]), float(trade["strike"])
    q = float(u.get("dividend", 0.0))

    if model == "black-scholes" and flat:
        r, vol = u.get("rate", market["rate"]), u["volatility"]
        if product in ("european", "digital"):
            t = trade["maturity"]
            fwd, var, disc = s * math.exp((r - q) * t), vol * vol * t, math.exp(-r * t)
            if product == "european":
                return black(fwd, k, var, disc, call)
            d1 = (math.log(fwd / k) + var / 2) / math.sqrt(var)
            sign = 1 if call else -1
            if trade.get("digital", "cash-or-nothing") == "asset-or-nothing":
                return float(disc * fwd * ncdf(sign * d1))
            return float(disc * trade.get("cash", 1.0) * ncdf(sign * (d1 - math.sqrt(var))))
        if product == "asian" and trade.get("average") == "geometric":
            ts = fixing_times(trade["fixings"])
            n, pay = len(ts), trade.get("maturity", ts[-1])
            mean = math.log(s) + (r - q - vol * vol / 2) * sum(ts) / n
            var = vol * vol * sum(min(a, b) for a in ts for b in ts) / (n * n)
            return black(math.exp(mean + var / 2), k, var, math.exp(-r * pay), call)
        return None

    if model == "merton" and product == "european" and "dividends" not in u:
        t = trade["maturity"]
        lam, mu, delta, vol = u["lambda"], u["jump_mean"], u["jump_vol"], u["volatility"]
        kappa = math.exp(mu + delta * delta / 2) - 1
        ir = rate_integral(market, u, t)
        disc = math.exp(-ir)
        total, weight = 0.0, math.exp(-lam * t)
        for n in range(60):  # Poisson weights of the number of jumps
            m = math.log(s) + ir - q * t - lam * kappa * t - vol * vol * t / 2 + n * mu
            var = vol * vol * t + n * delta * delta
            total += weight * black(math.exp(m + var / 2), k, var, disc, call)
            weight *= lam * t / (n + 1)
        return total
    return None


def main(argv: Sequence[str]) -> int:
    if len(argv) != 3:
        sys.stderr.write("usage: mcprice price ... --format csv | "
                         "closed_forms.py MARKET PORTFOLIO\n")
        return 2
    with open(argv[1]) as f:
        market = json.load(f)
    with open(argv[2]) as f:
        book = json.load(f)
    run = {row["id"]: row for row in csv.DictReader(sys.stdin) if row["measure"] == "price"}
    print(f"{'id':<22} {'closed form':>12} {'run':>12} {'std_error':>10} {'z or rel':>10}")
    bad = 0
    for trade in book["trades"]:
        cf = closed_form(market, trade)
        row = run.get(trade["id"])
        if cf is None or row is None:
            continue
        p, se = float(row["value"]), float(row["std_error"])
        if row["method"] == "pde":
            rel = (p - cf) / cf
            bad += abs(rel) > GRID_LIMIT
            print(f"{trade['id']:<22} {cf:12.6f} {p:12.6f} {'(grid)':>10} {rel:10.1e}")
        else:
            z = (p - cf) / se
            bad += abs(z) > Z_LIMIT
            print(f"{trade['id']:<22} {cf:12.6f} {p:12.6f} {se:10.6f} {z:10.2f}")
    print(f"{bad} outside |z| <= {Z_LIMIT:g} (grid: relative {GRID_LIMIT:g})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

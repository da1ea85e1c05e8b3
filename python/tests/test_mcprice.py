"""The Python binding against closed forms, the library's own reproducibility
and its errors.  Run by tests/test_python.sh (make check) with
MCPRICE_LIBRARY set to the build's library."""
import collections.abc
import dataclasses
import json
import math
import os
import subprocess
import sys

import pytest

import mcprice

SRCDIR = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))
MARKET = os.path.join(SRCDIR, "examples", "market.json")
BOOK = os.path.join(SRCDIR, "examples", "book.json")
S, K, R, Q, VOL, T = 100.0, 105.0, 0.03, 0.01, 0.2, 1.0


def market():
    return {"rate": R, "underlyings": [{"name": "ACME", "spot": S, "dividend": Q,
                                         "volatility": VOL}]}


def book(paths=200_000, seed=11):
    return {"run": {"paths": paths, "seed": seed},
            "trades": [{"id": "C", "product": "european", "type": "call", "underlying": "ACME",
                        "strike": K, "maturity": T, "quantity": 2},
                       {"id": "P", "product": "european", "type": "put", "underlying": "ACME",
                        "strike": K, "maturity": T, "quantity": -1}]}


def norm_cdf(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def black_scholes(call):
    d1 = (math.log(S / K) + (R - Q + VOL * VOL / 2) * T) / (VOL * math.sqrt(T))
    d2 = d1 - VOL * math.sqrt(T)
    if call:
        return S * math.exp(-Q * T) * norm_cdf(d1) - K * math.exp(-R * T) * norm_cdf(d2)
    return K * math.exp(-R * T) * norm_cdf(-d2) - S * math.exp(-Q * T) * norm_cdf(-d1)


def test_prices_against_black_scholes():
    r = mcprice.price(market(), book(), backend="cpu")
    for tid, call in (("C", True), ("P", False)):
        t = r[tid]
        assert t.engine == "mc" and t.std_error > 0
        assert abs(t.price - black_scholes(call)) < 5 * t.std_error
    assert r.total.price == pytest.approx(2 * r["C"].price - r["P"].price, rel=1e-12)
    assert r.paths == 200_000 and r.seed == 11 and r.backend == "cpu"


def test_files_and_dicts_give_the_same_bits():
    with open(MARKET) as f:
        m = json.load(f)
    with open(BOOK) as f:
        b = json.load(f)
    a = mcprice.price(MARKET, BOOK, paths=8192, backend="cpu")
    d = mcprice.price(m, b, paths=8192, backend="cpu")
    assert len(a) == len(b["trades"]) and a.total == d.total
    assert [t.estimate for t in a.trades] == [t.estimate for t in d.trades]
    auto = [t for t in a.trades if t.redemptions]
    assert auto and all(abs(sum(p.price for _, p in t.redemptions) - 1) < 1e-9 for t in auto)


def test_dates_are_years_at_load():
    """A dated book: a date 365 days on is one year (ACT/365F), so the book in
    dates prices to the bits of the book in years; without the market's
    valuation date a date is refused."""
    m = market()
    m["valuation_date"] = "2026-11-29"
    dated = book(paths=4096)
    for t in dated["trades"]:
        t["maturity"] = "2027-11-29"
    a = mcprice.price(m, dated, backend="cpu")
    b = mcprice.price(market(), book(paths=4096), backend="cpu")
    assert [t.estimate for t in a.trades] == [t.estimate for t in b.trades]
    m["day_count"] = "ACT/360"  # 365/360 years: another price
    assert mcprice.price(m, dated, backend="cpu")["C"].price != a["C"].price
    with pytest.raises(mcprice.McpriceError, match="valuation_date"):
        mcprice.price(market(), dated, backend="cpu")


def test_run_options_reach_the_run():
    a = mcprice.price(market(), book(), paths=20_000, seed=5, backend="cpu")
    b = mcprice.price(market(), book(), paths=20_000, seed=5, backend="cpu", tile_paths=1024)
    c = mcprice.price(market(), book(), paths=20_000, seed=6, backend="cpu")
    anti = mcprice.price(market(), book(), paths=20_000, seed=5, backend="cpu",
                         methods="antithetic")
    assert a.total == b.total                        # tiles never change the bits
    assert a.total != c.total and a.paths == 20_000  # the seed and paths do
    assert anti["C"].estimate != a["C"].estimate


def test_wisdom(tmp_path):
    """A wisdom file (mcprice tune) changes speed alone: the same bits; a bad
    one is an InputError naming its field."""
    top = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))
    good = os.path.join(top, "tests", "data", "cli_wisdom.json")
    a = mcprice.price(market(), book(), paths=20_000, seed=5, backend="cpu")
    b = mcprice.price(market(), book(), paths=20_000, seed=5, backend="cpu", wisdom=good)
    assert a.total == b.total
    bad = tmp_path / "bad.json"
    bad.write_text(open(good).read().replace('"block_size": 256', '"block_size": 250'))
    with pytest.raises(mcprice.InputError, match=r"entries\[0\]\.block_size: expected"):
        mcprice.price(market(), book(), backend="cpu", wisdom=bad)
    with pytest.raises(mcprice.InputError, match="no_such.json"):
        mcprice.price(market(), book(), backend="cpu", wisdom=tmp_path / "no_such.json")


def test_how_to_run_from_the_book_or_the_call():
    float_book = book(paths=20_000, seed=5)
    float_book["run"]["precision"] = "float"
    a = mcprice.price(market(), book(paths=20_000, seed=5), backend="cpu")
    f = mcprice.price(market(), book(paths=20_000, seed=5), backend="cpu", precision="float")
    g = mcprice.price(market(), float_book, backend="cpu")
    d = mcprice.price(market(), float_book, backend="cpu", precision="double")
    assert f.total == g.total      # the book's run object reaches the run options
    assert f.total != a.total      # and float paths change the bits
    assert d.total == a.total      # the call's options win over the book's
    x = mcprice.price(market(), book(paths=20_000, seed=5), backend="cpu", precision="mixed")
    assert x.total != a.total      # mixed: double's paths, its normals transformed in float,
    assert abs(x.total.price - a.total.price) <= 0.2 * a.total.std_error  # a fifth of an error


def test_grid_check():
    heston = {"rate": R, "underlyings": [{"name": "H", "model": "heston", "spot": S, "v0": 0.04,
                                           "kappa": 1.0, "theta": 0.04, "xi": 1.5,
                                           "rho": -0.9}]}
    b = {"run": {"paths": 20_000, "seed": 3, "steps_per_year": 12, "heston_scheme": "euler"},
         "trades": [{"id": "P", "product": "european", "type": "put", "underlying": "H",
                     "strike": 80, "maturity": 1.0}]}
    on = mcprice.price(heston, b, backend="cpu")
    off = mcprice.price(heston, b, backend="cpu", grid_check=False)
    assert on["P"].estimate == off["P"].estimate  # the check changes no price
    assert off["P"].grid_move is None and off["P"].warnings == ()
    move = on["P"].grid_move
    assert abs(move.price) > on["P"].std_error + 3 * move.std_error
    assert on["P"].warnings == ("grid",)
    b["run"]["grid_check"] = False                # the book's run object reaches it too
    assert mcprice.price(heston, b, backend="cpu")["P"].grid_move is None
    assert mcprice.price(market(), book(20_000), backend="cpu")["C"].grid_move is None
    with pytest.raises(TypeError):
        mcprice.price(heston, b, backend="cpu", grid_check=1)


def test_exercise_boundary():
    b = {"run": {"paths": 20_000, "seed": 3},
         "trades": [{"id": "A", "product": "american", "type": "put", "underlying": "ACME",
                     "strike": K, "maturity": T},
                    {"id": "B", "product": "bermudan", "type": "put", "underlying": "ACME",
                     "strike": K, "exercise_dates": {"first": 0.5, "last": 1.0, "count": 2}}]}
    off = mcprice.price(market(), b, backend="cpu")
    on = mcprice.price(market(), b, backend="cpu", exercise_boundary=True)
    assert off["A"].exercise_boundary == () and on["A"].estimate == off["A"].estimate
    grid = on["A"].exercise_boundary
    assert grid[0][0] == 0 and grid[-1] == (T, K) and len(grid) > 400
    assert all(0.7 * K < s < K for _, s in grid[:-1])   # a put's: below the strike
    rule = on["B"].exercise_boundary
    assert [t for t, _ in rule] == [0.5, 1.0] and rule[-1][1] == K and 0.7 * K < rule[0][1] < K
    with pytest.raises(TypeError):
        mcprice.price(market(), b, backend="cpu", exercise_boundary="yes")


def test_greeks():
    r = mcprice.price(market(), book(), greeks="delta,vega", backend="cpu")
    d1 = (math.log(S / K) + (R - Q + VOL * VOL / 2) * T) / (VOL * math.sqrt(T))
    delta = r["C"].greeks["delta"]
    assert delta.method == "pathwise" and delta.underlying == "ACME"
    assert abs(delta.value.price - math.exp(-Q * T) * norm_cdf(d1)) < 5 * delta.value.std_error
    assert "delta:ACME" in r.book_greeks and "vega:ACME" in r.book_greeks


def test_buckets():
    """A vega a piece of the volatility curve: the pieces' vegas sum to the
    trade's vega (the effective volatility's, closed form)."""
    m = market()
    m["underlyings"][0].pop("volatility")
    m["underlyings"][0]["curves"] = {"volatility": {"end": [0.5, 2], "value": [0.15, 0.25]}}
    r = mcprice.price(m, book(paths=100_000), greeks="vega", buckets=True, backend="cpu")
    g = r["C"].greeks
    first, rest = g["vega@(0,0.5]"], g["vega@(0.5,inf)"]
    assert first.method == "adjoint" and first.bucket == "(0,0.5]"
    assert abs(first.value.price + rest.value.price - g["vega"].value.price) < 1e-9
    sig = math.sqrt((0.5 * 0.15 ** 2 + 0.5 * 0.25 ** 2) / T)
    d1 = (math.log(S / K) + (R - Q + sig * sig / 2) * T) / (sig * math.sqrt(T))
    vega = S * math.exp(-Q * T) * math.exp(-d1 * d1 / 2) / math.sqrt(2 * math.pi) * math.sqrt(T)
    exact = vega * 0.5 * 0.15 / (sig * T)  # d sigma_eff / d sigma_1 = sigma_1 tau_1 / (sigma T)
    assert abs(first.value.price - exact) < 4 * first.value.std_error
    assert "vega:ACME@(0,0.5]" in r.book_greeks
    with pytest.raises(ValueError):
        mcprice.price(market(), book(), buckets=True)


def test_correlation():
    """A basket's correlation by adjoint against the central difference of
    its price with the correlation moved, on the same paths."""
    def two(rho):
        return {"rate": R, "underlyings": [
            {"name": "ACME", "spot": S, "dividend": Q, "volatility": VOL},
            {"name": "BOLT", "spot": 90.0, "volatility": 0.3}],
            "correlations": [{"underlyings": ["ACME", "BOLT"],
                              "matrix": [[1, rho], [rho, 1]]}]}
    b = {"run": {"paths": 20_000, "seed": 3},
         "trades": [{"id": "B", "product": "basket", "type": "call", "assets": ["ACME", "BOLT"],
                     "weights": [0.5, 0.5], "strike": 95, "maturity": T}]}
    r = mcprice.price(two(0.4), b, greeks="correlation", backend="cpu")
    c = r["B"].greeks["correlation:ACME:BOLT"]
    assert c.method == "adjoint" and c.underlying == "ACME" and c.underlying2 == "BOLT"
    h = 1e-6
    up = mcprice.price(two(0.4 + h), b, backend="cpu")["B"].price
    dn = mcprice.price(two(0.4 - h), b, backend="cpu")["B"].price
    assert abs(c.value.price - (up - dn) / (2 * h)) < 1e-4 * abs(c.value.price)
    assert c.value.price > 0  # a call on a sum: more correlation, more variance


def test_local_vol_basket():
    """A basket of two local-volatility assets: a node's vega and the
    correlation by adjoint against central differences of the price on the
    same paths."""
    def two(node=0.0, rho=0.4):
        def lv(name, spot, bump):
            v = [[0.30, 0.24, 0.20], [0.28, 0.23, 0.21]]
            v[1][1] += bump
            return {"name": name, "model": "local-volatility", "spot": spot,
                    "local_volatility": {"times": [0.3, 1.0], "spots": [80.0, 97.0, 120.0],
                                         "values": v}}
        return {"rate": R, "underlyings": [lv("ACME", S, node), lv("BOLT", 90.0, 0.0)],
                "correlations": [{"underlyings": ["ACME", "BOLT"],
                                  "matrix": [[1, rho], [rho, 1]]}]}
    b = {"run": {"paths": 4_000, "seed": 5, "steps_per_year": 12},
         "trades": [{"id": "B", "product": "basket", "type": "call", "assets": ["ACME", "BOLT"],
                     "weights": [0.5, 0.5], "strike": 95, "maturity": T}]}
    g = mcprice.price(two(), b, greeks="vega,correlation", buckets=True, backend="cpu")["B"].greeks
    h = 1e-6
    for name, up, dn in (("vega:ACME@t=1,S=97", two(node=h), two(node=-h)),
                         ("correlation:ACME:BOLT", two(rho=0.4 + h), two(rho=0.4 - h))):
        x = g[name]
        assert x.method == "adjoint"
        fd = (mcprice.price(up, b, backend="cpu")["B"].price -
              mcprice.price(dn, b, backend="cpu")["B"].price) / (2 * h)
        assert abs(x.value.price - fd) < 1e-4 * abs(fd) + 1e-3 * x.value.std_error


def test_quote_vegas():
    """An underlying given implied volatilities: its vega buckets are its
    quotes ("vega@T=1,K=100"), an Asian's by adjoint and a European's in
    closed form, each the central difference of the prices with that quote
    moved, on the same paths."""
    def quoted(bump):
        v = [[0.26, 0.23, 0.21, 0.2, 0.2], [0.25, 0.225, 0.21, 0.2, 0.198]]
        v[1][2] += bump
        return {"rate": R, "underlyings": [{"name": "ACME", "spot": S, "dividend": Q,
                                            "implied_volatility": {
                                                "maturities": [0.5, 1.0],
                                                "strikes": [80, 90, 100, 110, 120],
                                                "volatilities": v}}]}
    b = {"run": {"paths": 4_000, "seed": 3, "steps_per_year": 12},
         "trades": [{"id": "A", "product": "asian", "average": "arithmetic", "type": "call",
                     "underlying": "ACME",
                     "strike": 100, "maturity": 0.9, "fixings": [0.3, 0.6, 0.9]},
                    {"id": "E", "product": "european", "type": "put", "underlying": "ACME",
                     "strike": 95, "maturity": 0.75}]}
    r = mcprice.price(quoted(0.0), b, greeks="vega", buckets=True, backend="cpu")
    h = 1e-5  # five quotes fix the smile's five coordinates barely: its linear range is narrow
    up, dn = (mcprice.price(quoted(x), b, backend="cpu") for x in (h, -h))
    for tid, method in (("A", "adjoint"), ("E", "analytic")):
        x = r[tid].greeks["vega@T=1,K=100"]
        assert x.method == method and x.bucket == "T=1,K=100"
        fd = (up[tid].price - dn[tid].price) / (2 * h)
        assert x.value.price == pytest.approx(fd, rel=1e-3, abs=1e-4)


def test_cash_dividend_sensitivities():
    """A Black-Scholes underlying paying cash dividends: each amount paid by
    the trade's last date its sensitivity ("dividend@t=0.3"), by adjoint,
    the central difference of the prices with that amount moved, on the
    same paths; the one after it none."""
    def paying(bump):
        return {"rate": R, "underlyings": [{"name": "ACME", "spot": S, "volatility": 0.25,
                                            "dividends": [{"time": 0.3, "amount": 2 + bump},
                                                          {"time": 1.5, "amount": 2}]}]}
    b = {"run": {"paths": 4_000, "seed": 5, "steps_per_year": 12},
         "trades": [{"id": "A", "product": "asian", "average": "arithmetic", "type": "call",
                     "underlying": "ACME", "strike": 98, "maturity": 0.9,
                     "fixings": [0.3, 0.6, 0.9]}]}
    g = mcprice.price(paying(0.0), b, greeks="delta,dividend", buckets=True,
                      backend="cpu")["A"].greeks
    assert g["dividend@t=0.3"].method == "adjoint" and "dividend@t=1.5" not in g
    h = 1e-6
    up, dn = (mcprice.price(paying(x), b, backend="cpu")["A"].price for x in (h, -h))
    assert g["dividend@t=0.3"].value.price == pytest.approx((up - dn) / (2 * h), rel=1e-5)


def test_heston_model_vegas():
    """A Heston call's vega a parameter of the model, with buckets, by
    adjoint: kappa's the derivative of the price on the same paths (their
    central difference at kappa moved by 1e-6)."""
    def heston(kappa):
        return {"rate": R, "underlyings": [{"name": "H", "model": "heston", "spot": S,
                                            "v0": 0.04, "kappa": kappa, "theta": 0.05,
                                            "xi": 0.5, "rho": -0.7}]}
    b = {"run": {"paths": 4_000, "seed": 9, "steps_per_year": 12},
         "trades": [{"id": "C", "product": "european", "type": "call", "underlying": "H",
                     "strike": K, "maturity": T}]}
    g = mcprice.price(heston(1.5), b, greeks="vega", buckets=True, backend="cpu")["C"].greeks
    assert {"vega@v0", "vega@kappa", "vega@theta", "vega@xi", "vega@rho"} <= set(g)
    h = 1e-6
    fd = (mcprice.price(heston(1.5 + h), b, backend="cpu")["C"].price -
          mcprice.price(heston(1.5 - h), b, backend="cpu")["C"].price) / (2 * h)
    assert g["vega@kappa"].method == "adjoint"
    assert abs(g["vega@kappa"].value.price - fd) < 1e-5 * abs(fd)


def test_heston_basket_by_adjoint():
    """A basket and an American basket put (its exercise rule held as the
    run fitted it) on two Heston assets, with buckets and correlation:
    their model vegas, rho's among them, and their spots' correlation by
    adjoint, each the derivative of the price on the same paths (central
    differences at 1e-6, the American's rule fitted again on its paths;
    rho moves its spot's and variance's entry)."""
    def two(rho=-0.5, corr=0.4):
        h = [{"name": n, "model": "heston", "spot": s, "v0": 0.04, "kappa": 1.5,
              "theta": 0.04, "xi": 0.2, "rho": r}
             for n, s, r in (("H1", S, rho), ("H2", 90.0, -0.3))]
        return {"rate": R, "underlyings": h,
                "correlations": [{"underlyings": ["H1", "H1:variance", "H2"],
                                  "matrix": [[1, rho, corr], [rho, 1, 0], [corr, 0, 1]]}]}
    b = {"run": {"paths": 4_000, "seed": 5, "steps_per_year": 12},
         "trades": [{"id": "B", "product": "basket", "type": "call", "assets": ["H1", "H2"],
                     "strike": 95, "maturity": T},
                    {"id": "A", "product": "american", "type": "put", "payoff": "basket",
                     "assets": ["H1", "H2"], "weights": [0.5, 0.5], "strike": 105,
                     "maturity": T, "exercises": 6}]}
    r = mcprice.price(two(), b, greeks="vega,correlation", buckets=True, backend="cpu")
    h = 1e-6
    for name, up, dn in (("vega:H1@rho", two(rho=-0.5 + h), two(rho=-0.5 - h)),
                         ("correlation:H1:H2", two(corr=0.4 + h), two(corr=0.4 - h))):
        pu, pd = mcprice.price(up, b, backend="cpu"), mcprice.price(dn, b, backend="cpu")
        for t in ("B", "A"):
            fd = (pu[t].price - pd[t].price) / (2 * h)
            g = r[t].greeks[name]
            assert g.method == "adjoint"
            assert abs(g.value.price - fd) < 1e-5 * abs(fd)


def test_cross_gamma_by_revaluation():
    """A basket's cross gamma on local-volatility assets (whose paths do not
    scale with the spots: four revaluations) against the prices at both
    spots moved; and an American basket on two Heston assets has one."""
    def two(ha=0.0, hb=0.0, model="local-volatility"):
        def asset(name, spot):
            if model == "heston":
                return {"name": name, "model": "heston", "spot": spot, "v0": 0.04,
                        "kappa": 1.5, "theta": 0.04, "xi": 0.3, "rho": -0.5}
            return {"name": name, "model": model, "spot": spot,
                    "local_volatility": {"times": [1.0], "spots": [S], "values": [[VOL]]}}
        return {"rate": R,
                "underlyings": [asset("ACME", S * (1 + ha)), asset("BOLT", 90 * (1 + hb))],
                "correlations": [{"underlyings": ["ACME", "BOLT"],
                                  "matrix": [[1, 0.4], [0.4, 1]]}]}
    b = {"run": {"paths": 4_000, "seed": 3, "steps_per_year": 4},
         "trades": [{"id": "B", "product": "basket", "type": "put", "assets": ["ACME", "BOLT"],
                     "strike": 95, "maturity": T}]}
    r = mcprice.price(two(), b, greeks="cross-gamma", backend="cpu")
    x = r["B"].greeks["cross-gamma:ACME:BOLT"]
    h = 0.01
    v = {(a, c): mcprice.price(two(a * h, c * h), b, backend="cpu")["B"].price
         for a in (1, -1) for c in (1, -1)}
    fd = (v[1, 1] - v[1, -1] - v[-1, 1] + v[-1, -1]) / (4 * h * S * h * 90)
    assert x.method == "bump" and abs(x.value.price - fd) < 1e-7 * abs(fd)
    b["trades"][0].update({"product": "american", "payoff": "basket", "exercises": 4})
    a = mcprice.price(two(model="heston"), b, greeks="cross-gamma", backend="cpu")["B"]
    assert a.greeks["cross-gamma:ACME:BOLT"].method == "bump"


def test_dividend():
    """The dividend yield's sensitivity of a call by adjoint against the
    closed form, -T S e^(-qT) N(d1), its pieces' sum."""
    m = market()
    m["underlyings"][0].pop("dividend")
    m["underlyings"][0]["curves"] = {"dividend": {"end": [0.5, 2], "value": [Q, Q]}}
    r = mcprice.price(m, book(paths=100_000), greeks="dividend", buckets=True, backend="cpu")
    g = r["C"].greeks
    d1 = (math.log(S / K) + (R - Q + VOL * VOL / 2) * T) / (VOL * math.sqrt(T))
    exact = -T * S * math.exp(-Q * T) * norm_cdf(d1)
    total = g["dividend"]
    assert total.method == "adjoint"
    assert abs(total.value.price - exact) < 4 * total.value.std_error
    pieces = g["dividend@(0,0.5]"].value.price + g["dividend@(0.5,inf)"].value.price
    assert abs(pieces - total.value.price) < 1e-9 * abs(exact)


def test_frtb():
    """FRTB's sensitivities: a call's delta against the scenario of its spot
    1% up priced by hand, the vega at its 1-year vertex, the book as its
    sum, the CRIF text; a market without the classification is refused."""
    m = market()
    m["currency"] = "EUR"
    m["underlyings"][0]["frtb_bucket"] = 12
    f = mcprice.frtb(m, book(paths=20_000), backend="cpu")
    rec = {(x.trade_id, x.risk, x.tenor): x for x in f.records}
    delta = rec[("C", "EQ_DELTA", 0.0)]
    assert delta.qualifier == "ACME" and delta.bucket == 12 and delta.currency == "EUR"
    s = {"scenarios": [{"name": "up", "shifts": {"ACME": {"spot": 0.01}}}]}
    g = mcprice.scenarios(m, book(paths=20_000), s, backend="cpu")
    by_hand = (g.prices["up"]["C"].price - g.base_prices["C"].price) / 0.01 * g.quantities["C"]
    assert delta.amount == by_hand
    assert rec[("C", "EQ_VEGA", 1.0)].amount > 0
    assert rec[(None, "EQ_DELTA", 0.0)].amount == delta.amount + rec[("P", "EQ_DELTA", 0.0)].amount
    assert rec[("C", "EQ_CURV", 0.15)].amount < 0  # a long call gains both ways
    assert rec[("C", "EQ_CURV", -0.15)].amount < 0
    assert f.crif.startswith("TradeID,RiskType,Qualifier,Bucket,Label1,Label2,Amount,")
    assert "\nC,EQ_DELTA,ACME,12,,SPOT," in f.crif
    with pytest.raises(mcprice.McpriceError, match="currency"):
        mcprice.frtb(market(), book(), backend="cpu")


def test_scenarios():
    grid = {"spot": {"kind": "relative", "shifts": [-0.1, 0, 0.1]}}
    g = mcprice.scenarios(market(), book(paths=20_000), grid, backend="cpu")
    calls = [g.prices["C"][i][0][0].price for i in range(3)]
    assert g.spot == (-0.1, 0.0, 0.1) and g.kinds[0] == "relative"
    assert calls[0] < calls[1] < calls[2]
    plain = mcprice.price(market(), book(paths=20_000), backend="cpu")
    assert g.prices["C"][1][0][0] == plain["C"].estimate   # the unshifted point, to the bit


def test_scenario_set():
    days = {"kinds": {"volatility": "absolute"}, "scenarios": [
        {"name": "crash", "shifts": {"ACME": {"spot": -0.2, "volatility": 0.1}}},
        {"name": "rally", "shifts": {"ACME": {"spot": 0.1}}},
        {"name": "flat", "shifts": {}}]}
    s = mcprice.scenarios(market(), book(paths=20_000), days, backend="cpu", levels=[0.99, 0.5])
    assert s.names == ("crash", "rally", "flat") and s.kinds == ("relative", "absolute", "absolute")
    plain = mcprice.price(market(), book(paths=20_000), backend="cpu")
    assert s.base_prices["C"] == plain["C"].estimate and s.base == plain.total   # to the bit
    assert s.values["flat"] == s.base and s.losses["flat"].price == 0
    assert s.losses["flat"].std_error == 0                  # the same paths, path by path
    crash = s.losses["crash"]
    assert crash.price == s.base.price - s.values["crash"].price
    assert 0 < crash.std_error < s.values["crash"].std_error   # common random numbers
    assert s.prices["rally"]["C"].price > s.base_prices["C"].price > s.prices["crash"]["C"].price
    worst = max(x.price for x in s.losses.values())
    var, es = s.risk[0.99]                      # a tail of 0.03 scenarios: the worst
    assert var == worst and abs(es - worst) <= 1e-12 * abs(worst)
    assert s.risk[0.5][0] == sorted(x.price for x in s.losses.values())[1]   # tail 1.5
    with pytest.raises(ValueError, match="levels"):
        mcprice.scenarios(market(), book(), days, backend="cpu", levels=[1.0])
    days["scenarios"][0]["shifts"]["NOPE"] = {"spot": 0.1}
    with pytest.raises(mcprice.McpriceError, match="scenario 'crash': underlying 'NOPE'"):
        mcprice.scenarios(market(), book(), days, backend="cpu")


def test_errors_carry_the_library_message():
    bad = market()
    bad["underlyings"][0]["spot"] = -5
    with pytest.raises(mcprice.McpriceError) as e:
        mcprice.price(bad, book(), backend="cpu")
    assert "spot" in str(e.value) and e.value.status != 0
    with pytest.raises(mcprice.McpriceError) as e:
        mcprice.price("/nonexistent/market.json", book(), backend="cpu")
    assert "/nonexistent/market.json" in str(e.value)
    with pytest.raises(TypeError, match="unknown run option"):
        mcprice.price(market(), book(), pathz=10)
    with pytest.raises(ValueError, match="methods"):
        mcprice.price(market(), book(), methods="fast")
    with pytest.raises(ValueError, match="greeks"):
        mcprice.price(market(), book(), greeks="charm", backend="cpu")
    with pytest.raises(ValueError, match="paths"):
        mcprice.price(market(), book(), paths=1, backend="cpu")
    with pytest.raises(TypeError):
        mcprice.price(42, book())
    with pytest.raises(ValueError, match="seed"):      # not wrapped to 64 bits
        mcprice.price(market(), book(), seed=2**64 + 3, backend="cpu")
    with pytest.raises(ValueError, match="devices"):
        mcprice.price(market(), book(), devices=[0, 2**32], backend="cpu")
    with pytest.raises(ValueError, match="greek_method"):
        mcprice.price(market(), book(), greek_method="bogus")
    # the library's refusals of run options, with its messages
    with pytest.raises(mcprice.McpriceError, match="expected 0 .the CPU backend's one device"):
        mcprice.price(market(), book(), backend="cpu", devices=[0, 1])
    with pytest.raises(mcprice.McpriceError, match="block size"):
        mcprice.price(market(), book(), backend="cpu", block_size=100)
    with pytest.raises(mcprice.McpriceError, match="tile paths"):
        mcprice.price(market(), book(), backend="cpu", tile_paths=1000)


def test_strings_with_a_nul_are_refused_not_cut():
    # C would read "market.json\0x" as "market.json", and "cpu\0gpu" as "cpu"
    top = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(__file__), "..", "..")
    path = os.path.join(top, "tests", "data", "cli_market.json")
    assert os.path.exists(path)
    with pytest.raises(ValueError, match="market: expected a file path without a NUL"):
        mcprice.price(path + "\0ignored", book(), backend="cpu")
    with pytest.raises(ValueError, match="backend: expected a string without a NUL"):
        mcprice.price(market(), book(), backend="cpu\0cuda")
    with pytest.raises(ValueError, match="greeks: expected a string without a NUL"):
        mcprice.price(market(), book(), greeks="delta\0charm", backend="cpu")


def test_errors_are_worded_as_documented():
    # the library's refusal of a value: a UsageError (a McpriceError and a
    # ValueError), naming the option as the tool does; every message starts
    # "mcprice: "
    with pytest.raises(mcprice.UsageError) as e:
        mcprice.price(market(), book(), paths=1, backend="cpu")
    assert isinstance(e.value, ValueError) and e.value.status != 0
    assert str(e.value).startswith("mcprice: paths: ")
    with pytest.raises(mcprice.UsageError) as e:
        mcprice.price(market(), book(), backend="cpu", block_size=100)
    assert str(e.value).startswith("mcprice: block_size: ")
    with pytest.raises(mcprice.UsageError) as e:
        mcprice.price(market(), book(), greeks="charm", backend="cpu")
    assert str(e.value).startswith("mcprice: greeks: ")
    with pytest.raises(mcprice.InputError) as e:
        mcprice.price("/nonexistent/market.json", book(), backend="cpu")
    assert isinstance(e.value, ValueError) and not isinstance(e.value, mcprice.UsageError)
    assert str(e.value).startswith("mcprice: /nonexistent/market.json: cannot open")
    with pytest.raises(mcprice.UsageError) as e:    # refused before the library sees it
        mcprice.price(market(), book(), backend="gpu")
    assert str(e.value).startswith("mcprice: backend: expected")
    assert e.value.status == 1                      # MCP_ERR_ARGUMENT


def test_error_classes_are_the_tools_exit_statuses():
    # the same failure through the command-line tool and through Python: its
    # exit status is the class's exit_status
    tool = os.path.join(os.path.dirname(os.environ.get("MCPRICE_LIBRARY", "")), "..", "mcprice")
    if not os.path.exists(tool):
        pytest.skip("no command-line tool beside the library")
    top = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(__file__), "..", "..")
    mk = os.path.join(top, "tests", "data", "cli_market.json")
    bk = os.path.join(top, "examples", "book.json")
    cases = [(["--market", "/nonexistent.json", "--portfolio", bk],
              lambda: mcprice.price("/nonexistent.json", bk, backend="cpu"), mcprice.InputError),
             (["--market", mk, "--portfolio", bk, "--paths", "1"],
              lambda: mcprice.price(mk, bk, backend="cpu", paths=1), mcprice.UsageError)]
    if not mcprice.price(market(), book(), paths=100).backend == "cuda":
        cases.append((["--market", mk, "--portfolio", bk, "--backend", "cuda"],
                      lambda: mcprice.price(mk, bk, backend="cuda"), mcprice.DeviceError))
    for args, call, cls in cases:
        run = subprocess.run([tool, "price", "--format", "csv"] + args, capture_output=True)
        with pytest.raises(cls) as e:
            call()
        assert run.returncode == cls.exit_status == e.value.exit_status, (args, run.stderr)
        assert isinstance(e.value, mcprice.McpriceError)
    assert issubclass(mcprice.InputError, ValueError)
    assert not issubclass(mcprice.DeviceError, ValueError)


def long_book():
    # a Heston call of 2^22 paths of 2,000 steps: tens of seconds on the CPU
    return {"run": {"paths": 1 << 22, "seed": 3, "steps_per_year": 2000},
            "trades": [{"id": "H", "product": "european", "type": "call", "underlying": "HX",
                        "strike": 100, "maturity": 1.0}]}


def heston_market():
    return {"rate": 0.02, "underlyings": [{"name": "HX", "spot": 100, "model": "heston",
                                           "v0": 0.04, "kappa": 1.5, "theta": 0.04, "xi": 0.5,
                                           "rho": -0.7}]}


def test_progress_and_cancel():
    seen = []
    r = mcprice.price(market(), book(paths=20_000), backend="cpu", tile_paths=4096,
                      progress=seen.append)
    assert len(seen) > 2 and seen == sorted(seen) and seen[-1] == pytest.approx(1, abs=1e-12)
    assert r.total.price == mcprice.price(market(), book(paths=20_000), backend="cpu").total.price
    # a progress function that returns False cancels: Cancelled, the tool's status when
    # interrupted
    calls = []
    with pytest.raises(mcprice.Cancelled) as e:
        mcprice.price(market(), book(paths=20_000), backend="cpu", tile_paths=4096,
                      progress=lambda f: calls.append(f) or len(calls) < 2)
    assert len(calls) == 2 and e.value.exit_status == 130 and e.value.status == 9
    assert "cancelled" in str(e.value)
    with pytest.raises(TypeError, match="progress"):
        mcprice.price(market(), book(), progress="yes")
    assert mcprice.price(market(), book(paths=2000), backend="cpu", progress=None).paths == 2000


def test_progress_true_draws(capfd):
    mcprice.price(market(), book(paths=20_000), backend="cpu", tile_paths=4096, progress=True)
    err = capfd.readouterr().err
    assert "pricing" in err and "100" in err


def test_ctrl_c_cancels_within_a_second():
    # SIGINT to this process from the first report of a long run:
    # KeyboardInterrupt, soon; the same context's library then prices again
    import signal
    import time
    sent = []

    def interrupt(fraction):
        if not sent:
            sent.append(time.monotonic())
            os.kill(os.getpid(), signal.SIGINT)

    # Python's own handler, as at an interactive prompt: a shell's
    # background job (make check &, nohup) starts with SIGINT ignored, and
    # the package then leaves Ctrl-C alone (the run went its 15 minutes)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            mcprice.price(heston_market(), long_book(), backend="cpu", tile_paths=1 << 22,
                          progress=interrupt)
    finally:
        signal.signal(signal.SIGINT, old)
    done = time.monotonic()
    assert sent and done - sent[0] < 1.0, done - sent[0]
    assert mcprice.price(market(), book(paths=2000), backend="cpu").total.std_error > 0


def test_a_failing_progress_function_stops_the_call():
    def boom(fraction):
        raise ZeroDivisionError("from the progress function")

    with pytest.raises(ZeroDivisionError, match="from the progress function"):
        mcprice.price(heston_market(), long_book(), backend="cpu", tile_paths=1 << 22,
                      progress=boom)


def test_a_typed_pythonic_api():
    # Results is a mapping of ids, in the book's order
    r = mcprice.price(market(), book(), backend="cpu", paths=2000)
    assert isinstance(r, collections.abc.Mapping)
    assert list(r) == [t.id for t in r.trades] == list(r.keys())
    assert all(r[t.id] is t for t in r.trades) and len(r) == len(r.trades)
    assert dataclasses.asdict(r)["trades"][0]["id"] == r.trades[0].id
    assert [f.name for f in dataclasses.fields(r)][0] == "trades"
    assert "C" in r and "nope" not in r and r.get("nope") is None
    with pytest.raises(KeyError):
        r["nope"]
    # the package's version is the library's (and the wheel's: test_build.py)
    assert mcprice.__version__ == mcprice.version()
    # booleans are not integers, floats not integers, numbers not strings,
    # a scheme a name
    with pytest.raises(mcprice.UsageError, match="heston_scheme: expected qe or euler"):
        mcprice.price(market(), book(), backend="cpu", heston_scheme=["qe"])
    assert mcprice.McpriceValueError is mcprice.UsageError
    with pytest.raises(TypeError, match="paths: expected an integer"):
        mcprice.price(market(), book(), backend="cpu", paths=True)
    with pytest.raises(TypeError, match="paths: expected an integer"):
        mcprice.price(market(), book(), backend="cpu", paths=2000.0)
    with pytest.raises(TypeError, match="spot: expected a number"):
        mcprice.heston_european("call", "100", 100, 1, 0, 0, 0.04, 1, 0.04, 0.5, 0)


def test_numpy_numbers_are_numbers():
    np = pytest.importorskip("numpy")
    a = mcprice.price(market(), book(), backend="cpu", paths=2000, seed=5, devices=[0])
    b = mcprice.price(market(), book(), backend="cpu", paths=np.int64(2000), seed=np.uint32(5),
                      devices=[np.int32(0)])
    assert a.total == b.total and a.paths == 2000
    with pytest.raises(TypeError, match="paths: expected an integer"):
        mcprice.price(market(), book(), backend="cpu", paths=np.float64(2000))
    with pytest.raises(TypeError, match="grid_check"):
        mcprice.price(market(), book(), backend="cpu", grid_check=np.bool_(True))
    with pytest.raises(TypeError, match="seed: expected an integer"):
        mcprice.price(market(), book(), backend="cpu", seed=np.True_)
    args = (100, 100, 1, 0.01, 0.02, 0.04, 4, 0.25, 1, -0.5)
    assert mcprice.heston_european("call", *[np.float64(x) for x in args]) == \
        mcprice.heston_european("call", *args)
    g = mcprice.scenarios(market(), book(), {"spot": {"shifts": [0]}},
                          levels=[np.float32(0.99)], backend="cpu", paths=2000)
    assert isinstance(g, mcprice.ScenarioResults)


def test_a_missing_library_is_a_clear_import_error():
    env = dict(os.environ, MCPRICE_LIBRARY="/nonexistent/libmcprice.so")
    p = subprocess.run([sys.executable, "-c", "import mcprice"], env=env, capture_output=True,
                       text=True)
    assert p.returncode != 0 and "cannot load libmcprice" in p.stderr


def test_dataframe():
    pd = pytest.importorskip("pandas")
    r = mcprice.price(market(), book(), greeks="delta", backend="cpu")
    df = r.to_dataframe(wide=True)
    assert isinstance(df, pd.DataFrame) and list(df.index) == ["C", "P", "TOTAL"]
    assert df.loc["C", "price"] == r["C"].price and "delta" in df.columns
    assert df.loc["TOTAL", "value"] == r.total.price and math.isnan(df.loc["TOTAL", "quantity"])
    assert list(df.columns[:8]) == ["quantity", "price", "std_error", "ci95_low", "ci95_high",
                                    "value", "method", "warnings"]
    long = r.to_dataframe()
    assert list(long.columns) == list(mcprice.LONG_COLUMNS)
    assert list(zip(long["id"], long["measure"])) == [
        ("C", "price"), ("C", "delta"), ("P", "price"), ("P", "delta"), ("TOTAL", "value"),
        ("TOTAL", "delta:ACME")]
    assert long["position_value"][1] == 2 * r["C"].greeks["delta"].value.price


def test_long_rows_are_the_tools_long_csv(tmp_path):
    # the same run through the tool (--format csv with Greeks) and through
    # Python: the same rows, to the bit; a warned trade's warnings in its
    # row and issued at the call
    import csv
    import io
    import warnings
    tool = os.path.join(os.path.dirname(os.environ.get("MCPRICE_LIBRARY", "")), "..", "mcprice")
    if not os.path.exists(tool):
        pytest.skip("no command-line tool beside the library")
    b = book(paths=4000)
    b["trades"].append({"id": "far", "product": "european", "type": "call",
                        "underlying": "ACME", "strike": 1e6, "maturity": 1})
    bk, mk = tmp_path / "book.json", tmp_path / "market.json"
    bk.write_text(json.dumps(b))
    mk.write_text(json.dumps(market()))
    run = subprocess.run([tool, "price", "--market", str(mk), "--portfolio", str(bk), "--backend",
                          "cpu", "--greeks", "delta,vega", "--format", "csv"],
                         capture_output=True, text=True, check=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = mcprice.price(str(mk), str(bk), backend="cpu", greeks="delta,vega")
    tool_rows = list(csv.DictReader(io.StringIO(run.stdout)))
    assert tuple(tool_rows[0]) == mcprice.LONG_COLUMNS
    mine = r.rows()
    assert len(mine) == len(tool_rows)
    for a, t in zip(mine, tool_rows):
        for k in mcprice.LONG_COLUMNS:
            x = a[k]
            if isinstance(x, float):
                assert (math.isnan(x) and t[k] == "") or x == float(t[k]), (k, a, t)
            else:
                assert str(x) == t[k], (k, a, t)
    far = [x for x in mine if x["id"] == "far" and x["measure"] == "price"][0]
    assert far["warnings"] == "constant"
    assert [str(w.message) for w in caught if issubclass(w.category, mcprice.McpriceWarning)] \
        == ["mcprice: trade 'far': " + mcprice._warning_text("constant")]


def test_terms_that_mean_nothing_alone_are_refused():
    # a moving window's barrier kind or rebate without a barrier, an
    # autocallable's strike without a knock-in: refused, not dropped
    fix = {"first": 0.25, "last": 1, "count": 4}
    window = {"id": "W", "product": "moving-window", "type": "call", "underlying": "ACME",
              "strike": 100, "window": 2, "fixings": fix}
    note = {"id": "N", "product": "autocallable", "underlying": "ACME", "initial_fixings": 100,
            "fixings": fix, "autocall_level": 1}
    for trade, field in ((dict(window, barrier_kind="down-and-out"), "'barrier'"),
                         (dict(window, rebate=1), "'barrier_kind'"),
                         (dict(note, strike=0.9), "strike"),
                         (dict(note, monitoring="bridge"), "monitoring")):
        with pytest.raises(mcprice.McpriceError, match=field):
            mcprice.price(market(), {"run": {"paths": 100}, "trades": [trade]}, backend="cpu")


def test_antithetic_paths_must_be_even():
    # 2001 antithetic paths ran 2002 and reported 2001: refused
    with pytest.raises(mcprice.McpriceError, match="paths: .*antithetic.* even number"):
        mcprice.price(market(), book(paths=2001), methods=["antithetic"], backend="cpu")
    r = mcprice.price(market(), book(paths=2002), methods=["antithetic"], backend="cpu")
    assert r.paths == 2002


def test_average_digital():
    # the digital on the average reaches Python by its name: the geometric
    # one against its closed form, and on one fixing the plain digital
    fix = [(k + 1) / 12 for k in range(12)]
    n = len(fix)
    mu = math.log(S) + (R - Q - VOL * VOL / 2) * sum(fix) / n
    s = VOL * math.sqrt(sum(min(a, b) for a in fix for b in fix)) / n
    exact = math.exp(-R * T) * 2.5 * norm_cdf((mu - math.log(K)) / s)
    trades = [{"id": "G", "product": "average-digital", "type": "call", "underlying": "ACME",
               "strike": K, "average": "geometric", "fixings": fix, "cash": 2.5},
              {"id": "A1", "product": "average-digital", "type": "call", "underlying": "ACME",
               "strike": K, "average": "arithmetic", "fixings": [T], "cash": 2.5},
              {"id": "D", "product": "digital", "type": "call", "underlying": "ACME",
               "strike": K, "maturity": T, "cash": 2.5}]
    r = mcprice.price(market(), {"run": {"paths": 200_000, "seed": 3}, "trades": trades},
                      backend="cpu")
    assert abs(r["G"].price - exact) <= 4 * r["G"].std_error
    assert r["A1"].price == r["D"].price and r["A1"].std_error == r["D"].std_error
    with pytest.raises(mcprice.McpriceError, match="strike_kind"):
        mcprice.price(market(), {"run": {"paths": 100},
                                 "trades": [dict(trades[0], strike_kind="floating")]},
                      backend="cpu")


def test_csv_book(tmp_path):
    # a book as CSV prices as its JSON does, to the bit
    rows = ["id,product,type,underlying,strike,maturity,quantity"]
    rows += [f"{t['id']},european,{t['type']},ACME,{K},{T},{t['quantity']}"
             for t in book()["trades"]]
    path = tmp_path / "book.csv"
    path.write_text("\n".join(rows) + "\n")
    a = mcprice.price(market(), str(path), paths=2000, backend="cpu")
    b = mcprice.price(market(), dict(book(), run={}), paths=2000, backend="cpu")
    assert a["C"].price == b["C"].price and a["P"].std_error == b["P"].std_error


def test_closed_forms():
    # a trade's "method": "analytic" is Black's formula, without a standard
    # error; the Heston integral is a call of its own, refusing a bad value
    trades = [dict(t, method="analytic") for t in book()["trades"]]
    r = mcprice.price(market(), {"trades": trades}, backend="cpu")
    assert abs(r["C"].price - black_scholes(True)) < 1e-12
    assert r["P"].std_error == 0 and r["P"].engine == "analytic"
    # Lewis's 50-digit reference (S 100, K 100, T 1, r 0.01, q 0.02, v0 0.04,
    # kappa 4, theta 0.25, xi 1, rho -0.5)
    call = mcprice.heston_european("call", 100, 100, 1, 0.01, 0.02, 0.04, 4, 0.25, 1, -0.5)
    assert abs(call - 16.070154917028834278) < 1e-11
    with pytest.raises(mcprice.UsageError, match="heston_european: .*xi"):
        mcprice.heston_european("put", 100, 100, 1, 0, 0, 0.04, 1, 0.04, -1, 0)
    with pytest.raises(ValueError, match="option_type"):
        mcprice.heston_european("straddle", 100, 100, 1, 0, 0, 0.04, 1, 0.04, 1, 0)


def test_implied_surface():
    # a flat implied surface: a European in closed form at its volatility, an
    # Asian on the paths of its Dupire surface as on Black-Scholes; a quote
    # that admits arbitrage is refused, named
    mats, money = [0.5, 1.0, 2.0], [0.8, 0.9, 1.0, 1.1, 1.2]
    surface = {"maturities": mats, "moneyness": money,
               "volatilities": [[VOL] * 5 for _ in mats]}
    und = {"name": "ACME", "spot": S, "dividend": Q, "implied_volatility": surface}
    implied = {"rate": R, "underlyings": [und]}
    r = mcprice.price(implied, book(), backend="cpu")
    assert abs(r["C"].price - black_scholes(True)) < 1e-12 and r["C"].engine == "analytic"
    asian = {"run": {"paths": 100_000, "seed": 3},
             "trades": [{"id": "A", "product": "asian", "average": "arithmetic", "type": "call",
                         "underlying": "ACME", "strike": 100, "maturity": 1,
                         "fixings": [0.25, 0.5, 0.75, 1]}]}
    a = mcprice.price(implied, asian, backend="cpu")["A"]
    b = mcprice.price(market(), asian, backend="cpu")["A"]
    assert abs(a.price - b.price) < 4 * math.hypot(a.std_error, b.std_error)
    bad = dict(surface, volatilities=[[VOL] * 5, [VOL * 0.5] * 5, [VOL] * 5])
    with pytest.raises(mcprice.McpriceError, match=r"volatilities\[0\] and \[1\].*calendar"):
        mcprice.price({"rate": R, "underlyings": [dict(und, implied_volatility=bad)]}, book(),
                      backend="cpu")


def test_seasoned():
    # an Asian all of whose fixings are past is its discounted payoff exactly;
    # one with past fixings prices as its equivalent unseasoned Asian
    past = {"id": "S", "product": "asian", "average": "arithmetic", "type": "call",
            "underlying": "ACME", "strike": 95, "maturity": 0.5, "fixings": [-0.5, -0.25],
            "past_fixings": [98.0, 104.0]}
    r = mcprice.price(market(), {"trades": [past]}, backend="cpu")
    assert abs(r["S"].price - math.exp(-R * 0.5) * 6) < 1e-12 and r["S"].std_error == 0
    half = dict(past, maturity=1.0, fixings=[-0.25, 0.5, 1.0], past_fixings=[98.0])
    same = dict(half, id="E", strike=(3 * 95 - 98.0) / 2, fixings=[0.5, 1.0])
    del same["past_fixings"]
    a = mcprice.price(market(), {"run": {"seed": 4}, "trades": [half]}, backend="cpu")["S"]
    b = mcprice.price(market(), {"run": {"seed": 4}, "trades": [same]}, backend="cpu")["E"]
    assert abs(a.price - b.price * 2 / 3) < 1e-12 * a.price
    with pytest.raises(mcprice.McpriceError, match=r"past_fixings: expected 1 spot, one for each"):
        mcprice.price(market(), {"trades": [dict(half, past_fixings=[])]}, backend="cpu")


def test_calibrate():
    # a surface made by the Heston integral is fitted back; the fitted market
    # prices a European as the integral does
    truth = {"v0": 0.04, "kappa": 2.0, "theta": 0.05, "xi": 0.6, "rho": -0.7}
    mats, strikes = [0.25, 1.0, 2.0], [80.0, 90.0, 100.0, 110.0, 120.0]
    rows = []
    for t in mats:
        f = S * math.exp((R - Q) * t)
        row = []
        for k in strikes:
            kind = "call" if k >= f else "put"
            p = mcprice.heston_european(kind, S, k, t, R, Q, *truth.values()) * math.exp(R * t)
            lo, hi = 1e-4, 3.0  # Black's volatility of the undiscounted price, by bisection
            for _ in range(100):
                mid = 0.5 * (lo + hi)
                d1 = (math.log(f / k) + 0.5 * mid * mid * t) / (mid * math.sqrt(t))
                c = f * norm_cdf(d1) - k * norm_cdf(d1 - mid * math.sqrt(t))
                lo, hi = (mid, hi) if (c if kind == "call" else c - (f - k)) < p else (lo, mid)
            row.append(0.5 * (lo + hi))
        rows.append(row)
    quotes = {"underlying": "ACME", "maturities": mats, "strikes": strikes,
              "volatilities": rows}
    fit = mcprice.calibrate(market(), quotes)
    assert fit.model == "heston" and fit.quotes == 15 and fit.rmse < 1e-3 and fit.converged
    assert fit.at_bound == ()
    for name, value in truth.items():
        assert abs(fit.parameters[name] - value) < 1e-3, (name, fit.parameters[name])
    assert abs(fit.fitted[1][2] - rows[1][2]) < 1e-6
    acme = fit.market["underlyings"][0]
    assert acme["model"] == "heston" and "volatility" not in acme
    book = {"trades": [{"id": "x", "product": "european", "type": "call", "underlying": "ACME",
                        "strike": 100, "maturity": 1, "method": "analytic"}]}
    r = mcprice.price(fit.market, book, backend="cpu")
    want = mcprice.heston_european("call", S, 100, 1, R, Q, *fit.parameters.values())
    assert abs(r["x"].price - want) < 1e-12
    with pytest.raises(mcprice.McpriceError, match="volatilities"):
        mcprice.calibrate(market(), dict(quotes, volatilities=rows[:2]))
    with pytest.raises(ValueError, match="model"):
        mcprice.calibrate(market(), quotes, model="sabr")
    # a Merton fit whose market cannot hold it (ACME correlated): the fit, no market
    correlated = dict(market(), underlyings=market()["underlyings"] + [
        {"name": "B", "spot": 50, "volatility": 0.3}],
        correlations=[{"underlyings": ["ACME", "B"], "matrix": [[1, 0.5], [0.5, 1]]}])
    with pytest.warns(UserWarning, match="as a merton underlying makes no market"):
        merton = mcprice.calibrate(correlated, quotes, model="merton")
    assert merton.market is None and merton.parameters["volatility"] > 0

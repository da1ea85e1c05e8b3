"""mcprice.plot's figures hold the numbers mcprice computes: a Greek's
profile against Black-Scholes, convergence against the pricings it draws,
a scenario grid's heatmap against its results.  Skipped without
matplotlib."""
import math
import sys

import pytest

pytest.importorskip("matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")

import mcprice  # noqa: E402
import mcprice.plot  # noqa: E402

S, K, R, Q, VOL, T = 100.0, 100.0, 0.03, 0.01, 0.2, 1.0


def market():
    return {"rate": R, "underlyings": [{"name": "ACME", "spot": S, "dividend": Q,
                                         "volatility": VOL}]}


def book():
    return {"run": {"seed": 5}, "trades": [
        {"id": "C", "product": "european", "type": "call", "underlying": "ACME",
         "strike": K, "maturity": T, "quantity": 3},
        {"id": "P", "product": "european", "type": "put", "underlying": "ACME",
         "strike": K, "maturity": T}]}


def bs_delta(spot):
    d1 = (math.log(spot / K) + (R - Q + VOL * VOL / 2) * T) / (VOL * math.sqrt(T))
    return math.exp(-Q * T) * 0.5 * (1 + math.erf(d1 / math.sqrt(2)))


def test_greek_profile_is_black_scholes_delta():
    shifts = [-0.2, -0.1, 0.0, 0.1, 0.2]
    ax = mcprice.plot.greek_profile(market(), book(), "C", "delta", shifts=shifts,
                                    paths=40_000, backend="cpu")
    x, y = ax.lines[0].get_xdata(), ax.lines[0].get_ydata()
    assert list(x) == shifts
    one = mcprice.price(market(), {"run": {"seed": 5}, "trades": [book()["trades"][0]]},
                        greeks="delta", paths=40_000, backend="cpu")
    se = one["C"].greeks["delta"].value.std_error
    for s, d in zip(shifts, y):
        assert abs(d - bs_delta(S * (1 + s))) < 5 * se + 1e-3, (s, d)
    # the point at no shift is the trade's pricing alone, to the bit
    assert y[2] == one["C"].greeks["delta"].value.price
    assert all(b > a for a, b in zip(y, y[1:]))


def test_convergence_draws_each_pricing():
    paths = (2_000, 8_000)
    ax = mcprice.plot.convergence(market(), book(), "P", paths=paths,
                                  methods=("none", ["antithetic", "control-variate"]),
                                  backend="cpu")
    assert [ln.get_label() for ln in ax.lines] == ["none", "antithetic+control-variate"]
    for ln, m in zip(ax.lines, ("none", ["antithetic", "control-variate"])):
        want = [mcprice.price(market(), book(), paths=n, methods=m, backend="cpu")["P"].price
                for n in paths]
        assert list(ln.get_ydata()) == want
    assert ax.get_xscale() == "log"
    book_ax = mcprice.plot.convergence(market(), book(), paths=(2_000,), methods=("none",),
                                       backend="cpu")
    total = mcprice.price(market(), book(), paths=2_000, methods="none", backend="cpu").total
    assert list(book_ax.lines[0].get_ydata()) == [total.price]


def test_scenario_heatmap_holds_the_grid():
    grid = {"spot": {"shifts": [-0.1, 0, 0.1]}, "volatility": {"shifts": [-0.05, 0.05]}}
    g = mcprice.scenarios(market(), book(), grid, paths=4_000, backend="cpu")
    ax = mcprice.plot.scenario_heatmap(g)
    image = ax.images[0].get_array()
    for i in range(3):
        for j in range(2):
            assert image[j][i] == g.totals[i][j][0].price
    # no point at (0, 0): the colours centre on the mean
    lo, hi = ax.images[0].get_clim()
    assert lo < min(min(r) for r in image.tolist()) or math.isclose(lo, image.min())
    trade_ax = mcprice.plot.scenario_heatmap(g, trade="C")
    assert trade_ax.images[0].get_array()[1][2] == g.prices["C"][2][1][0].price
    with pytest.raises(mcprice.UsageError, match="rate"):
        mcprice.plot.scenario_heatmap(g, rate=1)
    with pytest.raises(mcprice.UsageError, match="no trade"):
        mcprice.plot.scenario_heatmap(g, trade="X")


def test_refusals():
    with pytest.raises(mcprice.UsageError, match="one Greek"):
        mcprice.plot.greek_profile(market(), book(), "C", "delta,vega", backend="cpu")
    with pytest.raises(mcprice.UsageError, match="no trade 'Z'"):
        mcprice.plot.greek_profile(market(), book(), "Z", backend="cpu")
    with pytest.raises(mcprice.UsageError, match="JSON file"):
        mcprice.plot.greek_profile(market(), "book.csv", "C", backend="cpu")


def test_without_matplotlib(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match="pip install matplotlib"):
        mcprice.plot.convergence(market(), book(), backend="cpu")

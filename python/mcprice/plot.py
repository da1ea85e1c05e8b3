"""Figures of mcprice's results, drawn with matplotlib (optional: an
ImportError that says so where it is missing).

- convergence: a price against paths, one line with its 95% band for each
  variance-reduction method;
- greek_profile: a Greek of one trade over a grid of spot shifts (common
  random numbers: the same seed at every point, so the curve is smooth);
- scenario_heatmap: a scenario grid's book value (or a trade's) over its
  spot and volatility shifts.

Each draws on ax (a new figure's where None) and returns the Axes.

>>> import mcprice, mcprice.plot
>>> market = {"rate": 0.03, "underlyings": [
...     {"name": "ACME", "spot": 100.0, "dividend": 0.01, "volatility": 0.2}]}
>>> book = {"run": {"seed": 7}, "trades": [{"id": "C", "product": "european",
...     "type": "call", "underlying": "ACME", "strike": 100, "maturity": 1.0}]}
>>> ax = mcprice.plot.greek_profile(market, book, "C", "delta", shifts=[-0.2, 0, 0.2],
...                                 paths=20_000, backend="cpu")
>>> [round(float(y), 3) for y in ax.lines[0].get_ydata()]
[0.182, 0.582, 0.862]
"""
import json
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import Estimate, Results, ScenarioResults, Source, _usage, price

__all__ = ["convergence", "greek_profile", "scenario_heatmap"]

# the 95% band of a normal estimate
_Z95 = 1.959963984540054
# greek_profile's spot shifts: -30% to +30% by 5%
_SHIFTS = tuple(k / 20 for k in range(-6, 7))


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("mcprice.plot draws with matplotlib: pip install matplotlib") from e
    return plt


def _axes(ax: Any) -> Any:
    return ax if ax is not None else _pyplot().subplots()[1]


def _as_dict(kind: str, source: Source) -> Dict[str, Any]:
    """A JSON file's object, or a copy of the dict given."""
    if isinstance(source, dict):
        copy: Dict[str, Any] = json.loads(json.dumps(source))
        return copy
    path = os.fspath(source)
    if not path.endswith(".json"):
        raise _usage(kind, f"{path}: expected a JSON file or a dict for this figure")
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise _usage(kind, f"{path}: expected a JSON object")
    return data


def _one_trade(portfolio: Source, trade: str) -> Dict[str, Any]:
    """The portfolio (its run object kept) with trade alone."""
    book = _as_dict("portfolio", portfolio)
    trades = [t for t in book.get("trades", []) if isinstance(t, dict) and t.get("id") == trade]
    if not trades:
        raise _usage("portfolio", f"no trade {trade!r}")
    book["trades"] = trades
    return book


def _estimate(r: Results, trade: Optional[str]) -> Estimate:
    if trade is None:
        return r.total
    if trade not in r:
        raise _usage("trade", f"no trade {trade!r} in the results")
    return r[trade].estimate


def convergence(market: Source, portfolio: Source, trade: Optional[str] = None,
                paths: Sequence[int] = (1_000, 4_000, 16_000, 64_000),
                methods: Iterable[Union[str, Sequence[str]]] = ("none", "antithetic",
                                                                "control-variate", "qmc"),
                ax: Any = None, **run_options: Any) -> Any:
    """The per-unit price of trade (the book's value where None) against
    the number of paths, on a log axis, one line and 95% band for each
    variance-reduction method (a name, "none", or a list of names
    combined); every point is one pricing with the portfolio's seed."""
    ax = _axes(ax)
    book = _one_trade(portfolio, trade) if trade is not None else portfolio
    for m in methods:
        label = m if isinstance(m, str) else "+".join(m)
        est = [_estimate(price(market, book, paths=n, methods=m, **run_options), trade)
               for n in paths]
        y = [e.price for e in est]
        half = [_Z95 * e.std_error for e in est]
        line = ax.plot(list(paths), y, marker="o", label=label)[0]
        ax.fill_between(list(paths), [a - h for a, h in zip(y, half)],
                        [a + h for a, h in zip(y, half)], color=line.get_color(), alpha=0.15)
    ax.set_xscale("log")
    ax.set_xticks(list(paths), [f"{n:,}" for n in paths])
    ax.minorticks_off()
    ax.set_xlabel("paths")
    ax.set_ylabel(f"{trade} per unit" if trade is not None else "book value")
    ax.set_title("convergence, 95% bands")
    ax.legend()
    return ax


def _shifted(market: Dict[str, Any], shift: float) -> Dict[str, Any]:
    """The market with every underlying's spot times 1 + shift."""
    m: Dict[str, Any] = json.loads(json.dumps(market))
    for u in m.get("underlyings", []):
        if isinstance(u, dict) and isinstance(u.get("spot"), (int, float)):
            u["spot"] = u["spot"] * (1 + shift)
    return m


def greek_profile(market: Source, portfolio: Source, trade: str, greek: str = "delta",
                  shifts: Sequence[float] = _SHIFTS,
                  ax: Any = None, **run_options: Any) -> Any:
    """Trade's Greek (a name of mcprice.price's greeks: delta, gamma, vega,
    rho, theta; a multi-asset trade's as "delta:ACME") against relative
    shifts of every spot, with its 95% band."""
    if greek in ("", "all") or "," in greek:
        raise _usage("greek", f"expected one Greek's name, got {greek!r}")
    ax = _axes(ax)
    base = _as_dict("market", market)
    book = _one_trade(portfolio, trade)
    y: List[float] = []
    half: List[float] = []
    for x in shifts:
        r = price(_shifted(base, x), book, greeks=greek.split(":")[0], **run_options)
        g = r[trade].greeks
        if greek not in g:
            raise _usage("greek", f"{greek!r} is not among {trade}'s: {sorted(g)}")
        y.append(g[greek].value.price)
        half.append(_Z95 * g[greek].value.std_error)
    line = ax.plot(list(shifts), y, marker="o")[0]
    ax.fill_between(list(shifts), [a - h for a, h in zip(y, half)],
                    [a + h for a, h in zip(y, half)], color=line.get_color(), alpha=0.15)
    ax.axvline(0, color="grey", linewidth=0.5)
    ax.set_xlabel("spot shift (relative)")
    ax.set_ylabel(f"{greek} per unit")
    ax.set_title(f"{trade}: {greek}")
    return ax


def scenario_heatmap(results: ScenarioResults, trade: Optional[str] = None,
                     rate: Optional[int] = None, ax: Any = None) -> Any:
    """The book's value (trade's per-unit price where given) at each spot
    (columns) and volatility (rows) shift of a grid, at rate shift index
    rate (the shift 0 where None and the grid has it, else the first);
    each cell shows its value."""
    if not isinstance(results, ScenarioResults):
        raise _usage("results", "expected mcprice.scenarios' results of a grid")
    if rate is None:
        rate = results.rate.index(0.0) if 0.0 in results.rate else 0
    if not 0 <= rate < len(results.rate):
        raise _usage("rate", f"expected an index below {len(results.rate)}, got {rate}")
    if trade is not None and trade not in results.prices:
        raise _usage("trade", f"no trade {trade!r} in the results")
    grid = results.prices[trade] if trade is not None else results.totals
    values = [[grid[i][j][rate].price for i in range(len(results.spot))]
              for j in range(len(results.volatility))]
    ax = _axes(ax)
    centre = _centre(results, values)
    reach = max((abs(v - centre) for row in values for v in row), default=0.0) or 1.0
    image = ax.imshow(values, origin="lower", cmap="RdBu_r", vmin=centre - reach,
                      vmax=centre + reach, aspect="auto")
    for j, row in enumerate(values):
        for i, v in enumerate(row):
            ax.text(i, j, f"{v:.4g}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(results.spot)), [f"{s:g}" for s in results.spot])
    ax.set_yticks(range(len(results.volatility)), [f"{s:g}" for s in results.volatility])
    ax.set_xlabel(f"spot shift ({results.kinds[0]})")
    ax.set_ylabel(f"volatility shift ({results.kinds[1]})")
    what = f"{trade} per unit" if trade is not None else "book value"
    ax.set_title(f"{what}, rate shift {results.rate[rate]:g}")
    ax.figure.colorbar(image, ax=ax)
    return ax


def _centre(results: ScenarioResults, values: List[List[float]]) -> float:
    """White: the value at no spot and volatility shift where the grid has
    that point, else the mean."""
    at: Tuple[Optional[int], Optional[int]] = (
        results.spot.index(0.0) if 0.0 in results.spot else None,
        results.volatility.index(0.0) if 0.0 in results.volatility else None)
    if at[0] is not None and at[1] is not None:
        return values[at[1]][at[0]]
    flat = [v for row in values for v in row]
    return sum(flat) / len(flat)

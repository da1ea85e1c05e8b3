"""mcprice: Monte Carlo pricing of equity derivatives, from Python.

>>> import mcprice
>>> market = {"rate": 0.03, "underlyings": [
...     {"name": "ACME", "spot": 100.0, "dividend": 0.01, "volatility": 0.2}]}
>>> book = {"run": {"paths": 20_000, "seed": 7}, "trades": [
...     {"id": "ACME-EC-100", "product": "european", "type": "call",
...      "underlying": "ACME", "strike": 100, "maturity": 1.0, "quantity": 10}]}
>>> r = mcprice.price(market, book, backend="cpu")        # or file paths
>>> print(f"{r.total.price:.4f} +- {r.total.std_error:.4f}")   # the book
89.7305 +- 0.9691
>>> print(f"{r['ACME-EC-100'].price:.6f}")                 # a trade, per unit
8.973051
>>> r = mcprice.price(market, book, backend="cpu", greeks="delta,vega")
>>> d = r["ACME-EC-100"].greeks["delta"]
>>> print(d.method, f"{d.value.price:.4f} +- {d.value.std_error:.4f}")
pathwise 0.5820 +- 0.0041
>>> print(f"{r.book_greeks['delta:ACME'].value.price:.3f}")   # the book's
5.820
>>> g = mcprice.scenarios(market, book, {"spot": {"shifts": [-0.1, 0, 0.1]}}, backend="cpu")
>>> [round(g.prices["ACME-EC-100"][i][0][0].price, 4) for i in range(3)]
[4.1687, 8.9731, 15.673]
>>> market["currency"] = "USD"; market["underlyings"][0]["frtb_bucket"] = 5
>>> f = mcprice.frtb(market, book, backend="cpu")        # FRTB's sensitivities
>>> [(x.risk, x.tenor, round(x.amount, 2)) for x in f.records if x.trade_id][:4]
[('EQ_DELTA', 0.0, 591.54), ('EQ_VEGA', 1.0, 78.72), ('EQ_CURV', 0.3, -60.47), ('EQ_CURV', -0.3, -90.89)]
>>> print(f.crif.splitlines()[1])                         # a CRIF file's text
ACME-EC-100,EQ_DELTA,ACME,5,,SPOT,591.54431102618514,USD
>>> df = r.to_dataframe()    # a row a trade, where pandas is installed  # doctest: +SKIP

make check runs these lines as a doctest (tests/test_python.sh) on the CPU
backend, whose numbers are the same bits on every machine; make update-docs
rewrites their outputs.

A market, portfolio or scenario grid is a file path or a dict in the file
format (doc/input-schema.md).  Keyword options override the portfolio's run
object: what the book's prices mean (paths, seed, steps_per_year, methods,
scramblings, regression_paths, heston_scheme) and how to run it (backend,
device, devices, tile_paths, block_size, precision, normals, placement,
wisdom: the path of a wisdom file of `mcprice tune`, whose kernel options a
GPU run takes where it knows the GPU and a job's shape, the same prices;
grid_check: True, the default, or False to skip the discretisation check;
exercise_boundary: True to report each early-exercise trade's boundary);
greeks and greek_method choose the Greeks.  Errors, before any work where
the value alone tells: a value of the wrong type raises TypeError; one that
Python checks itself (an unknown option or name, an integer beyond its C
type, a string with a NUL character, which C would cut there) raises
ValueError; the library's refusals raise McpriceError with its status and
message.  The errors are one hierarchy whose classes are the command-line
tool's exit statuses: InputError (1: a market, book or scenario file or
dict the library refuses) and UsageError (2: an option, name or value you
gave, whether Python or the library refuses it) are also ValueErrors,
DeviceError (3: no GPU, memory, CUDA) is not, nor is Cancelled (130: a
progress function returned False); each has exit_status.  The run option
progress (True: a tqdm bar where tqdm is installed, else a line on standard
error; or a function of the fraction done) reports as the call runs;
Ctrl-C cancels the call within a tile and raises KeyboardInterrupt.  Every
message starts "mcprice: " and names the option, as the command-line tool's
do.  Integers and floats may be Python's or numpy's.  Results are plain
Python objects: the library's are copied and freed before a call returns;
Results is a mapping of trade ids to Trades, Results.rows() their tidy
long layout (LONG_COLUMNS: the tool's long CSV), to_dataframe() that as a
DataFrame (wide=True: a row a trade); a trade's warnings are also issued
as McpriceWarning.
"""
from __future__ import annotations

import concurrent.futures
import ctypes
import functools
import importlib
import json
import math
import numbers
import operator
import warnings
import os
import signal
import sys
import threading
from dataclasses import dataclass, field
from typing import (Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence,
                    Tuple, TypeVar, Union)

from . import _lib

__version__ = "0.1.0"

__all__ = ["price", "scenarios", "frtb", "McpriceError", "InputError", "UsageError",
           "DeviceError", "Cancelled", "McpriceWarning", "LONG_COLUMNS", "McpriceValueError", "Estimate", "Sensitivity", "Trade", "Results",
           "ScenarioResults",
           "ScenarioSetResults", "FrtbRecord", "FrtbResults", "version", "heston_european",
           "Calibration", "calibrate", "__version__"]

_L = _lib.load()

# a market, portfolio, scenario grid or quotes: a file's path or its dict
Source = Union[str, "os.PathLike[str]", Dict[str, Any]]
_T = TypeVar("_T")


class McpriceError(Exception):
    """A failed call: status is the library's mcp_status, the message its
    text; exit_status the command-line tool's for the same failure."""

    exit_status = 3

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class InputError(McpriceError, ValueError):
    """The library refused a market, portfolio, scenario grid or quotes (exit
    status 1): a file it cannot read, JSON it cannot parse, a field missing,
    unknown or impossible, a name that is not there."""

    exit_status = 1


class UsageError(McpriceError, ValueError):
    """An option, name or value given to a call is refused (exit status 2)."""

    exit_status = 2


class DeviceError(McpriceError):
    """The backend is not there (no GPU, not built in), memory ran out or a
    CUDA call failed (exit status 3)."""

    exit_status = 3


class Cancelled(McpriceError):
    """The pricing was cancelled: a progress function returned False (exit
    status 130, the command-line tool's when interrupted).  Ctrl-C cancels
    too, and raises KeyboardInterrupt."""

    exit_status = 130


class McpriceWarning(UserWarning):
    """A trade's warning (Trade.warnings), issued as price returns: the
    estimate stands, but read it with the warning's caution."""


McpriceValueError = UsageError  # its name before 0.1.0's classes; kept for old code


# mcp_status (mcprice.h) to its class: ARGUMENT, IO, PARSE, INPUT, NOT_FOUND,
# UNAVAILABLE, NO_MEMORY, DEVICE, CANCELLED
_CLASSES = {1: UsageError, 2: InputError, 3: InputError, 4: InputError, 5: InputError,
            6: DeviceError, 7: DeviceError, 8: DeviceError, 9: Cancelled}
_ARGUMENT = 1


def _refused(status: int, message: str, option: Optional[str] = None) -> McpriceError:
    """The library's refusal, its message as the tool words it: of a value
    you gave (option), a UsageError."""
    if option is not None:
        return UsageError(status, f"mcprice: {option}: {message}")
    return _CLASSES.get(status, McpriceError)(status, f"mcprice: {message}")


def _usage(option: str, message: str) -> UsageError:
    """A value refused before the library sees it."""
    return UsageError(_ARGUMENT, f"mcprice: {option}: {message}")


def _c_str(option: str, value: Any) -> bytes:
    """value (a str or path) as the bytes C reads: a NUL would end them there."""
    b = os.fsencode(value) if isinstance(value, os.PathLike) else str(value).encode()
    if b"\0" in b:
        raise _usage(option, f"expected a string without a NUL character, got {value!r}")
    return b


def version() -> str:
    """The library's version, which is the package's (__version__)."""
    return str(_L.mcp_version().decode())


def _float(option: str, value: Any) -> float:
    """value, a real number (Python's or numpy's), as a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"mcprice: {option}: expected a number, got {value!r}")
    return float(value)


def heston_european(option_type: str, spot: float, strike: float, maturity: float, rate: float,
                    dividend: float, v0: float, kappa: float, theta: float, xi: float,
                    rho: float) -> float:
    """A European "call" or "put" under Heston with flat rate and dividend
    yield, by Lewis's integral of the characteristic function
    (mcp_heston_european): the price, exact to about 1e-13 of the forward.

    >>> round(heston_european("call", 100, 100, 1, 0.03, 0, 0.04, 1.5, 0.04, 0.5, -0.7), 6)
    8.802661
    """
    types = {"call": 0, "put": 1}
    if option_type not in types:
        raise _usage("option_type", f"expected 'call' or 'put', got {option_type!r}")
    out, err = ctypes.c_double(), ctypes.create_string_buffer(_lib.ERRLEN)
    names = ("spot", "strike", "maturity", "rate", "dividend", "v0", "kappa", "theta", "xi", "rho")
    args = [_float(n, x) for n, x in zip(names, (spot, strike, maturity, rate, dividend, v0,
                                                 kappa, theta, xi, rho))]
    status = _L.mcp_heston_european(types[option_type], *args, ctypes.byref(out), err,
                                    _lib.ERRLEN)
    if status != 0:
        raise _refused(status, err.value.decode(errors="replace"), "heston_european")
    return float(out.value)


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate: the price, its standard error and its 95%
    confidence interval (a grid's price: the error 0)."""
    price: float
    std_error: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class Sensitivity:
    """A Greek of a trade or the book: its name ("delta:ACME"), the Greek,
    the estimator's method, its underlyings and its estimate."""
    name: str
    greek: str
    method: str
    underlying: Optional[str]
    underlying2: Optional[str]
    value: Estimate
    bucket: Optional[str] = None  # a bucketed vega's or rho's (price(buckets=True))


@dataclass(frozen=True)
class Trade:
    """A trade's price per unit (estimate), quantity, engine, warnings,
    Greeks by name and what the run options asked for besides."""
    id: str
    quantity: float
    estimate: Estimate
    engine: str
    warnings: Tuple[str, ...] = ()
    greeks: Dict[str, Sensitivity] = field(default_factory=dict)
    redemptions: Tuple[Tuple[float, Estimate], ...] = ()
    # the discretisation check's move of the price, fine grid less the grid
    # twice as coarse on the same paths (mcp_results_grid_move), or None
    grid_move: Optional[Estimate] = None
    # (time, critical spot) a point, with exercise_boundary=True
    # (mcp_results_exercise_boundary): a put is exercised at or below the
    # spot, a call at or above it (0 or inf: at none)
    exercise_boundary: Tuple[Tuple[float, float], ...] = ()

    @property
    def price(self) -> float:
        """The price per unit."""
        return self.estimate.price

    @property
    def std_error(self) -> float:
        """The price's standard error."""
        return self.estimate.std_error

    @property
    def value(self) -> float:
        """The position's value: quantity times price."""
        return self.quantity * self.estimate.price


@dataclass(frozen=True)
class Results(Mapping[str, Trade]):
    """A pricing's results: a mapping of trade ids to Trades, in the book's
    order (trades also), the book's total value and Greeks, and the run's
    paths, seed, backend and seconds.

    >>> r = price({"rate": 0.03, "underlyings": [{"name": "X", "spot": 100, "volatility": 0.2}]},
    ...           {"run": {"paths": 1000}, "trades": [{"id": "c", "product": "european",
    ...            "type": "call", "underlying": "X", "strike": 100, "maturity": 1}]},
    ...           backend="cpu")
    >>> list(r), "c" in r, len(r)
    (['c'], True, 1)
    """
    trades: Tuple[Trade, ...]
    total: Estimate
    book_greeks: Dict[str, Sensitivity]
    paths: int
    seed: int
    backend: str
    seconds: float

    @functools.cached_property
    def _index(self) -> Dict[str, Trade]:
        return {t.id: t for t in self.trades}

    def __getitem__(self, trade_id: str) -> Trade:
        return self._index[trade_id]

    def __iter__(self) -> Iterator[str]:
        return (t.id for t in self.trades)

    def __len__(self) -> int:
        return len(self.trades)

    def rows(self) -> List[Dict[str, Any]]:
        """The long layout: a row a trade (then TOTAL) and measure, the
        price (the book's value) first, then redemption probabilities,
        exercise boundaries and Greeks, with the trade's quantity, the
        position's value of the price or Greek (NaN where none) and the
        trade's warnings (their names, ";" between): LONG_COLUMNS, the
        command-line tool's long CSV column for column."""
        nan = math.nan
        out: List[Dict[str, Any]] = []

        def add(tid: str, measure: str, e: Estimate, method: str, quantity: float,
                position: float, warned: str = "") -> None:
            out.append(dict(zip(LONG_COLUMNS, (tid, measure, e.price, e.std_error, e.ci_low,
                                               e.ci_high, method, quantity, position, warned))))

        for t in self.trades:
            q = t.quantity
            add(t.id, "price", t.estimate, t.engine, q, t.value, ";".join(t.warnings))
            for when, e in t.redemptions:
                add(t.id, _timed("redemption", when), e, t.engine, q, nan)
            for when, spot in t.exercise_boundary:
                add(t.id, _timed("exercise_boundary", when), Estimate(spot, 0, spot, spot),
                    t.engine, q, nan)
            for s in t.greeks.values():
                add(t.id, s.name, s.value, s.method, q, q * s.value.price)
        total = self.total
        add("TOTAL", "value", total, "", nan, total.price)
        for s in self.book_greeks.values():
            add("TOTAL", s.name, s.value, s.method, nan, s.value.price)
        return out

    def to_dataframe(self, wide: bool = False) -> Any:
        """The long layout of rows() (pandas required); wide: a row a trade
        (then TOTAL), the columns of the tool's price CSV (id, quantity,
        price, std_error, ci95_low, ci95_high, value, method) and warnings,
        then the value of each Greek, indexed by id."""
        import pandas as pd
        if not wide:
            return pd.DataFrame(self.rows(), columns=list(LONG_COLUMNS))
        nan = math.nan
        rows = []
        for t in self.trades:
            e = t.estimate
            row = {"id": t.id, "quantity": t.quantity, "price": e.price,
                   "std_error": e.std_error, "ci95_low": e.ci_low, "ci95_high": e.ci_high,
                   "value": t.value, "method": t.engine, "warnings": ";".join(t.warnings)}
            row.update({name: s.value.price for name, s in t.greeks.items()})
            rows.append(row)
        tot = self.total
        row = {"id": "TOTAL", "quantity": nan, "price": nan, "std_error": tot.std_error,
               "ci95_low": tot.ci_low, "ci95_high": tot.ci_high, "value": tot.price,
               "method": "", "warnings": ""}
        row.update({name: s.value.price for name, s in self.book_greeks.items()})
        rows.append(row)
        return pd.DataFrame(rows).set_index("id")


@dataclass(frozen=True)
class ScenarioResults:
    """Prices at every point (i, j, k) of the spot, volatility and rate
    shifts: prices[trade id][i][j][k] and totals[i][j][k]."""
    spot: Tuple[float, ...]
    volatility: Tuple[float, ...]
    rate: Tuple[float, ...]
    kinds: Tuple[str, str, str]
    quantities: Dict[str, float]
    prices: Dict[str, List[List[List[Estimate]]]]
    totals: List[List[List[Estimate]]]

    def to_dataframe(self) -> Any:
        """A row a trade (and TOTAL) and point (pandas required)."""
        import pandas as pd
        rows = []
        for tid, grid in list(self.prices.items()) + [("TOTAL", self.totals)]:
            for i, s in enumerate(self.spot):
                for j, v in enumerate(self.volatility):
                    for k, r in enumerate(self.rate):
                        e = grid[i][j][k]
                        rows.append({"id": tid, "spot": s, "volatility": v, "rate": r,
                                     "price": e.price, "std_error": e.std_error})
        return pd.DataFrame(rows)


@dataclass(frozen=True)
class ScenarioSetResults:
    """A scenario set's values on the paths of its base (the market
    unshifted): base and values[name] the book's, prices[name][trade id]
    and base_prices[trade id] per unit, losses[name] the base's value less
    the scenario's (an Estimate: its error that of the difference path by
    path), and risk[level] = (VaR, ES), historical, at each level asked for
    (mcp_scenario_results_var)."""
    names: Tuple[str, ...]
    kinds: Tuple[str, str, str]
    quantities: Dict[str, float]
    base: Estimate
    base_prices: Dict[str, Estimate]
    values: Dict[str, Estimate]
    prices: Dict[str, Dict[str, Estimate]]
    losses: Dict[str, Estimate]
    risk: Dict[float, Tuple[float, float]]

    def to_dataframe(self) -> Any:
        """A row a scenario (the base first) and trade (and TOTAL), with the
        book's loss and its error on its TOTAL rows (pandas required)."""
        import pandas as pd
        rows = []
        for name in ("base",) + self.names:
            prices = self.base_prices if name == "base" else self.prices[name]
            for tid, e in prices.items():
                rows.append({"scenario": name, "id": tid, "price": e.price,
                             "std_error": e.std_error, "loss": None, "loss_std_error": None})
            total = self.base if name == "base" else self.values[name]
            loss = Estimate(0.0, 0.0, 0.0, 0.0) if name == "base" else self.losses[name]
            rows.append({"scenario": name, "id": "TOTAL", "price": total.price,
                         "std_error": total.std_error, "loss": loss.price,
                         "loss_std_error": loss.std_error})
        return pd.DataFrame(rows)


@dataclass(frozen=True)
class FrtbRecord:
    """One sensitivity of FRTB's standardised approach (mcp_frtb_record):
    trade_id None for the book's; risk EQ_DELTA, EQ_VEGA, EQ_CURV or
    GIRR_DELTA; qualifier the underlying or GIRR's currency; tenor the
    vega's vertex or GIRR's tenor in years, the curvature's signed risk
    weight, else 0; amount of the position, in currency."""
    trade_id: Optional[str]
    risk: str
    qualifier: str
    bucket: int
    tenor: float
    amount: float
    currency: str


@dataclass(frozen=True)
class FrtbResults:
    """The records of every trade, then the book's, and crif: the trades'
    records with an amount as the text of a CRIF file."""
    records: Tuple[FrtbRecord, ...]
    crif: str

    def to_dataframe(self) -> Any:
        """A row a record, the book's as TOTAL (pandas required)."""
        import pandas as pd
        return pd.DataFrame([{"id": r.trade_id or "TOTAL", "risk": r.risk,
                              "qualifier": r.qualifier, "bucket": r.bucket, "tenor": r.tenor,
                              "amount": r.amount, "currency": r.currency}
                             for r in self.records])


# ---- inputs ------------------------------------------------------------------

def _check(status: int, message: Optional[str]) -> None:
    if status != 0:
        raise _refused(status, message or _L.mcp_strerror(status).decode())


def _load(kind: str, source: Any, market: Optional[ctypes.c_void_p] = None,
          options: Optional[ctypes.c_void_p] = None) -> ctypes.c_void_p:
    """A market, portfolio or scenario handle from a path or a dict; a
    portfolio's dates become times by market's valuation date, and with
    options its run object's options go there, from the same parse."""
    handle = ctypes.c_void_p()
    err = ctypes.create_string_buffer(_lib.ERRLEN)
    # a portfolio is loaded for its market: the extra argument
    first: Tuple[Any, ...] = (ctypes.byref(handle),)
    suffix = ""
    if kind == "portfolio":
        first += ((ctypes.byref(options),) if options is not None else ()) + (market,)
        suffix = "_with_options" if options is not None else "_for"
    if isinstance(source, dict):
        text = json.dumps(source).encode()
        load = getattr(_L, f"mcp_{kind}_load_text{suffix}")
        st = load(*first, f"<{kind} dict>".encode(), text, len(text), err, _lib.ERRLEN)
    elif isinstance(source, (str, os.PathLike)):
        path = os.fsencode(source)
        if b"\0" in path:
            raise _usage(kind, f"expected a file path without a NUL character, got {source!r}")
        st = getattr(_L, f"mcp_{kind}_load{suffix}")(*first, path, err, _lib.ERRLEN)
    else:
        raise TypeError(f"mcprice: a {kind} is a file path or a dict, not "
                        f"{type(source).__name__}")
    _check(st, err.value.decode(errors="replace"))
    return handle


def _bool(option: str, value: Any) -> int:
    if not isinstance(value, bool):
        raise TypeError(f"mcprice: {option}: expected True or False, got {value!r}")
    return int(value)


def _name(fn: Any, option: str, value: Any, expected: str) -> int:
    out = ctypes.c_int()
    if fn(_c_str(option, value), ctypes.byref(out)) != 0:
        raise _usage(option, f"expected {expected}, got {value!r}")
    return out.value


_METHODS = {"antithetic": 1, "control-variate": 2, "qmc": 4}
# what the book's prices mean (the portfolio), and how to run (the run options)
_PORTFOLIO_OPTIONS = ("paths", "seed", "steps_per_year", "methods", "scramblings",
                      "regression_paths", "heston_scheme")
_CONTEXT_OPTIONS = ("backend", "device", "devices", "tile_paths", "block_size", "precision",
                    "normals", "placement", "grid_check", "exercise_boundary", "progress",
                    "wisdom")
_WARNINGS = 5  # MCP_WARNING_COUNT
# Results.rows' columns: the command-line tool's long CSV
LONG_COLUMNS = ("id", "measure", "value", "std_error", "ci95_low", "ci95_high", "method",
                "quantity", "position_value", "warnings")


def _timed(what: str, t: float) -> str:
    """A measure at time t, as the tool names it: the fewest digits, from
    10, that read back as t."""
    for digits in range(10, 18):
        name = f"{what}:{t:.{digits}g}"
        if float(name[len(what) + 1:]) == t:
            break
    return name


def _methods(value: Union[str, Iterable[str]]) -> int:
    names = value.split(",") if isinstance(value, str) else list(value)
    flags = 0
    for n in names:
        if n == "none":
            continue
        if n not in _METHODS:
            raise _usage("methods", f"expected none or names of {sorted(_METHODS)}, got {n!r}")
        flags |= _METHODS[n]
    return flags


def _int(option: str, value: Any, bits: int, signed: bool = False) -> int:
    """value, an integer (Python's or numpy's), as one the C type of bits
    holds: ctypes would wrap it."""
    try:  # a bool, Python's or numpy's (which numpy 1 still lets index), is no integer
        if isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", "") == "b":
            raise TypeError
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"mcprice: {option}: expected an integer, got {value!r}") from None
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not lo <= n <= hi:
        raise _usage(option, f"expected {lo} to {hi}, got {n}")
    return n


def _heston_scheme(value: Any) -> int:
    schemes = {"qe": 0, "euler": 1}
    if not isinstance(value, str) or value not in schemes:
        raise _usage("heston_scheme", f"expected qe or euler, got {value!r}")
    return schemes[value]


def _apply_portfolio(p: ctypes.c_void_p, opts: Dict[str, Any]) -> None:
    setters: Dict[str, Callable[[Any], Any]] = {
        "paths": lambda v: _L.mcp_portfolio_set_paths(p, _int("paths", v, 64)),
        "seed": lambda v: _L.mcp_portfolio_set_seed(p, _int("seed", v, 64)),
        "steps_per_year": lambda v: _L.mcp_portfolio_set_steps_per_year(
            p, _int("steps_per_year", v, 32)),
        "methods": lambda v: _L.mcp_portfolio_set_methods(p, _methods(v)),
        "scramblings": lambda v: _L.mcp_portfolio_set_scramblings(p, _int("scramblings", v, 32)),
        "regression_paths": lambda v: _L.mcp_portfolio_set_regression_paths(
            p, _int("regression_paths", v, 64)),
        "heston_scheme": lambda v: _L.mcp_portfolio_set_heston_scheme(p, _heston_scheme(v)),
    }
    for k, v in opts.items():
        if k in setters:
            st = setters[k](v)
            if st != 0:
                raise _refused(st, _L.mcp_portfolio_last_error(p).decode(errors="replace"), k)


def _context(run: ctypes.c_void_p, opts: Dict[str, Any]) -> ctypes.c_void_p:
    """A context on the run options run (the portfolio file's run object),
    the keyword options over them."""
    setters: Dict[str, Callable[[Any], Any]] = {
        "backend": lambda v: _L.mcp_run_options_set_backend(
            run, _name(_L.mcp_backend_from_name, "backend", v, "auto, cpu or cuda")),
        "precision": lambda v: _L.mcp_run_options_set_precision(
            run, _name(_L.mcp_precision_from_name, "precision", v, "double, float or mixed")),
        "normals": lambda v: _L.mcp_run_options_set_normals(
            run, _name(_L.mcp_normals_from_name, "normals", v, "fused or stored")),
        "placement": lambda v: _L.mcp_run_options_set_placement(
            run, _name(_L.mcp_placement_from_name, "placement", v,
                       "auto, registers, local or shared")),
        "tile_paths": lambda v: _L.mcp_run_options_set_tile_paths(
            run, _int("tile_paths", v, 64)),
        "block_size": lambda v: _L.mcp_run_options_set_block_size(
            run, _int("block_size", v, 32, signed=True)),
        "grid_check": lambda v: _L.mcp_run_options_set_grid_check(run, _bool("grid_check", v)),
        "exercise_boundary": lambda v: _L.mcp_run_options_set_exercise_boundary(
            run, _bool("exercise_boundary", v)),
    }
    for k, v in opts.items():
        if k in setters:
            st = setters[k](v)
            if st != 0:
                raise _refused(st, _L.mcp_run_options_last_error(run).decode(errors="replace"),
                               k)
    ctx = ctypes.c_void_p()
    err = ctypes.create_string_buffer(_lib.ERRLEN)
    st = _L.mcp_context_create_with_options(ctypes.byref(ctx), run, err, _lib.ERRLEN)
    _check(st, err.value.decode(errors="replace"))
    try:
        # the devices on the context, as the library checks them against its backend
        calls: List[Tuple[str, Callable[[], Any]]] = []
        if "device" in opts:
            d = _int("device", opts["device"], 32, signed=True)
            calls.append(("device", lambda: _L.mcp_context_set_device(ctx, d)))
        if "devices" in opts:
            devs = [_int("devices", d, 32, signed=True) for d in opts["devices"]]
            arr = (ctypes.c_int * max(len(devs), 1))(*devs)
            calls.append(("devices", lambda: _L.mcp_context_set_devices(ctx, len(devs), arr)))
        if "wisdom" in opts:
            _set_wisdom(ctx, _c_str("wisdom", opts["wisdom"]))
        for option, call in calls:
            st = call()
            if st != 0:
                raise _refused(st, _L.mcp_context_last_error(ctx).decode(errors="replace"),
                               option)
    except BaseException:
        _L.mcp_context_destroy(ctx)
        raise
    return ctx


def _set_wisdom(ctx: ctypes.c_void_p, path: bytes) -> None:
    """The wisdom file at path onto the context (its copy: ours is freed)."""
    w = ctypes.c_void_p()
    err = ctypes.create_string_buffer(_lib.ERRLEN)
    _check(_L.mcp_wisdom_load(ctypes.byref(w), path, err, _lib.ERRLEN),
           err.value.decode(errors="replace"))
    try:
        st = _L.mcp_context_set_wisdom(ctx, w)
        _check(st, _L.mcp_context_last_error(ctx).decode(errors="replace"))
    finally:
        _L.mcp_wisdom_destroy(w)


def _options(opts: Dict[str, Any], extra: Sequence[str] = ()) -> None:
    known = set(_PORTFOLIO_OPTIONS) | set(_CONTEXT_OPTIONS) | set(extra)
    unknown = sorted(set(opts) - known)
    if unknown:
        raise TypeError(f"mcprice: unknown run option(s) {unknown}; known: {sorted(known)}")


# ---- results -----------------------------------------------------------------

def _est(e: Any) -> Estimate:
    return Estimate(e.price, e.std_error, e.ci_low, e.ci_high)


def _s(b: Optional[bytes]) -> Optional[str]:
    return b.decode() if b is not None else None


def _str(b: Optional[bytes]) -> str:
    """A string the library always gives."""
    return b.decode() if b is not None else ""


def _sensitivities(r: ctypes.c_void_p, index: int) -> Dict[str, Sensitivity]:
    out = {}
    s = _lib.Sensitivity_()
    for k in range(_L.mcp_results_sensitivities(r, index)):
        _L.mcp_results_sensitivity(r, index, k, ctypes.byref(s))
        out[_str(s.name)] = Sensitivity(_str(s.name), _str(_L.mcp_greek_name(s.greek)),
                                        _str(_L.mcp_greek_method_name(s.method)),
                                        _s(s.underlying), _s(s.underlying2), _est(s.value),
                                        _s(s.bucket))
    return out


def _results(r: ctypes.c_void_p) -> Results:
    n = _L.mcp_results_count(r)
    e = _lib.Estimate_()
    trades = []
    for i in range(n):
        _L.mcp_results_trade(r, i, ctypes.byref(e))
        w = _L.mcp_results_warnings(r, i)
        warned = tuple(_str(_L.mcp_warning_name(1 << b)) for b in range(_WARNINGS) if w >> b & 1)
        red = []
        t = ctypes.c_double()
        p = _lib.Estimate_()
        for k in range(_L.mcp_results_redemptions(r, i)):
            _L.mcp_results_redemption(r, i, k, ctypes.byref(t), ctypes.byref(p))
            red.append((t.value, _est(p)))
        move = _est(p) if _L.mcp_results_grid_move(r, i, ctypes.byref(p)) == 0 else None
        spot = ctypes.c_double()
        bound = []
        for k in range(_L.mcp_results_exercise_boundaries(r, i)):
            _L.mcp_results_exercise_boundary(r, i, k, ctypes.byref(t), ctypes.byref(spot))
            bound.append((t.value, spot.value))
        trades.append(Trade(_str(_L.mcp_results_trade_id(r, i)), _L.mcp_results_quantity(r, i),
                            _est(e), _str(_L.mcp_engine_name(_L.mcp_results_engine(r, i))),
                            warned, _sensitivities(r, i), tuple(red), move, tuple(bound)))
    _L.mcp_results_total(r, ctypes.byref(e))
    return Results(tuple(trades), _est(e), _sensitivities(r, n), _L.mcp_results_paths(r),
                   _L.mcp_results_seed(r), _str(_L.mcp_backend_name(_L.mcp_results_backend(r))),
                   _L.mcp_results_seconds(r))


def _scenario_results(r: ctypes.c_void_p) -> ScenarioResults:
    axes = [tuple(_L.mcp_scenario_results_shift(r, a, i)
                  for i in range(_L.mcp_scenario_results_shifts(r, a))) for a in range(3)]
    k0, k1, k2 = ("absolute" if _L.mcp_scenario_results_kind(r, a) else "relative"
                  for a in range(3))
    e = _lib.Estimate_()

    def grid(get: Callable[[int, int, int], Any]) -> List[List[List[Estimate]]]:
        return [[[(get(i, j, k), _est(e))[1] for k in range(len(axes[2]))]
                 for j in range(len(axes[1]))] for i in range(len(axes[0]))]

    prices: Dict[str, List[List[List[Estimate]]]] = {}
    quantities: Dict[str, float] = {}
    for t in range(_L.mcp_scenario_results_count(r)):
        tid = _str(_L.mcp_scenario_results_trade_id(r, t))
        quantities[tid] = _L.mcp_scenario_results_quantity(r, t)
        prices[tid] = grid(lambda i, j, k: _L.mcp_scenario_results_trade(r, t, i, j, k,
                                                                         ctypes.byref(e)))
    totals = grid(lambda i, j, k: _L.mcp_scenario_results_total(r, i, j, k, ctypes.byref(e)))
    return ScenarioResults(axes[0], axes[1], axes[2], (k0, k1, k2), quantities, prices, totals)


def _set_results(r: ctypes.c_void_p, levels: Tuple[float, ...]) -> ScenarioSetResults:
    k0, k1, k2 = ("absolute" if _L.mcp_scenario_results_kind(r, a) else "relative"
                  for a in range(3))
    names = tuple(_str(_L.mcp_scenario_results_name(r, k))
                  for k in range(_L.mcp_scenario_results_scenarios(r)))
    e = _lib.Estimate_()
    ids = [_str(_L.mcp_scenario_results_trade_id(r, t))
           for t in range(_L.mcp_scenario_results_count(r))]
    quantities = {tid: float(_L.mcp_scenario_results_quantity(r, t)) for t, tid in enumerate(ids)}

    def got(status: int) -> Estimate:
        _check(status, None)
        return _est(e)

    base_prices = {tid: got(_L.mcp_scenario_results_base_trade(r, t, ctypes.byref(e)))
                   for t, tid in enumerate(ids)}
    base = got(_L.mcp_scenario_results_base(r, ctypes.byref(e)))
    prices = {n: {tid: got(_L.mcp_scenario_results_set_trade(r, t, k, ctypes.byref(e)))
                  for t, tid in enumerate(ids)} for k, n in enumerate(names)}
    values = {n: got(_L.mcp_scenario_results_set_total(r, k, ctypes.byref(e)))
              for k, n in enumerate(names)}
    losses = {n: got(_L.mcp_scenario_results_loss(r, k, ctypes.byref(e)))
              for k, n in enumerate(names)}
    risk: Dict[float, Tuple[float, float]] = {}
    var, es = ctypes.c_double(), ctypes.c_double()
    for level in levels:
        _check(_L.mcp_scenario_results_var(r, level, ctypes.byref(var), ctypes.byref(es)), None)
        risk[level] = (var.value, es.value)
    return ScenarioSetResults(names, (k0, k1, k2), quantities, base, base_prices, values, prices,
                              losses, risk)


@dataclass(frozen=True)
class Calibration:
    """A model fitted to implied volatilities (mcp_calibrate): its parameters
    by name, the fit's root-mean-square and largest error in volatility
    points, whether it converged and which parameters ended at their ranges'
    ends, each quote's fitted volatility (rows of maturities, None where not
    quoted) and the market, a dict, with the underlying made the model (None,
    with a warning, where that makes no market: a Merton underlying that the
    market correlates)."""
    underlying: str
    model: str
    parameters: Dict[str, float]
    quotes: int
    rmse: float
    max_error: float
    iterations: int
    converged: bool
    at_bound: Tuple[str, ...]
    fitted: Tuple[Tuple[Optional[float], ...], ...]
    market: Optional[Dict[str, Any]]


def _text(kind: str, source: Any) -> Tuple[bytes, bytes]:
    """A market's or quotes' JSON text and its name, from a path or a dict."""
    if isinstance(source, dict):
        return json.dumps(source).encode(), f"<{kind} dict>".encode()
    if isinstance(source, (str, os.PathLike)):
        path = _c_str(kind, source)
        with open(path, "rb") as f:
            return f.read(), path
    raise TypeError(f"mcprice: a {kind} is a file path or a dict, not {type(source).__name__}")


def calibrate(market: Source, quotes: Source, model: str = "heston") -> Calibration:
    """Fits model ("heston" or "merton") to the quotes (a path or a dict:
    underlying, maturities, strikes or moneyness, volatilities) on the
    market's spot and curves: Calibration."""
    kind = ctypes.c_int()
    if _L.mcp_fit_model_from_name(_c_str("model", model), ctypes.byref(kind)) != 0:
        raise _usage("model", f"expected 'heston' or 'merton', got {model!r}")
    mtext, mname = _text("market", market)
    qtext, qname = _text("quotes", quotes)
    err = ctypes.create_string_buffer(_lib.ERRLEN)
    m = ctypes.c_void_p()
    _check(_L.mcp_market_load_text(ctypes.byref(m), mname, mtext, len(mtext), err, _lib.ERRLEN),
           err.value.decode(errors="replace"))
    q = _lib.Quotes_()
    try:
        _check(_L.mcp_quotes_load_text(qname, qtext, len(qtext), m, ctypes.byref(q), err,
                                       _lib.ERRLEN), err.value.decode(errors="replace"))
        n, nk = q.nmaturities, q.nstrikes
        vols = (ctypes.c_double * (n * nk))()
        fit = _lib.Fit_()
        _check(_L.mcp_calibrate(m, ctypes.byref(q), kind.value, ctypes.byref(fit), vols, err,
                                _lib.ERRLEN), err.value.decode(errors="replace"))
        out, size = ctypes.c_void_p(), ctypes.c_size_t()
        fitted_market = None
        if _L.mcp_market_text_fitted(mname, mtext, len(mtext), q.underlying, ctypes.byref(fit),
                                     ctypes.byref(out), ctypes.byref(size), err,
                                     _lib.ERRLEN) != 0:
            warnings.warn("mcprice: calibrate: " + err.value.decode(errors="replace"),
                          stacklevel=2)
        else:
            try:
                fitted_market = json.loads(ctypes.string_at(out, size.value))
            finally:
                _L.mcp_free(out)
        names = [_str(_L.mcp_fit_param_name(kind.value, k)) for k in range(fit.nparams)]
        rows = tuple(tuple(None if math.isnan(vols[i * nk + k]) else vols[i * nk + k]
                           for k in range(nk)) for i in range(n))
        return Calibration(_str(q.underlying), model,
                           {name: fit.params[k] for k, name in enumerate(names)}, fit.quotes,
                           fit.rmse, fit.max_error, fit.iterations, bool(fit.converged),
                           tuple(name for k, name in enumerate(names) if fit.at_bound >> k & 1),
                           rows, fitted_market)
    finally:
        _L.mcp_quotes_free(ctypes.byref(q))
        _L.mcp_market_destroy(m)


# ---- the calls -----------------------------------------------------------------

Progress = Union[bool, Callable[[float], Optional[bool]]]


def _progress(opts: Dict[str, Any]) -> Progress:
    """The progress option, checked before any work."""
    value = opts.get("progress", False)
    if value is None:
        return False
    if not isinstance(value, bool) and not callable(value):
        raise TypeError(f"mcprice: progress: expected True, False or a function of the "
                        f"fraction done, got {type(value).__name__}")
    return value  # type: ignore[no-any-return]


def _reporter(progress: Progress) -> Tuple[Optional[Callable[[float], Optional[bool]]],
                                           Callable[[], None]]:
    """progress as a function of the fraction done, or None, and what closes
    it: a tqdm bar where tqdm is installed, else a line on standard error,
    for True; the function itself for one."""
    if callable(progress):
        return progress, lambda: None
    if not progress:
        return None, lambda: None
    try:
        tqdm = importlib.import_module("tqdm").tqdm
    except ImportError:
        def line(fraction: float) -> None:
            sys.stderr.write(f"\rpricing: {100 * fraction:3.0f}%")

        def end() -> None:
            sys.stderr.write("\n")
        return line, end
    bar = tqdm(total=100, desc="pricing", unit="%", bar_format="{l_bar}{bar}| {elapsed}")

    def update(fraction: float) -> None:
        bar.update(max(0, round(100 * fraction) - bar.n))
    return update, bar.close


class _Call:
    """A pricing call on a thread of the pool: it runs, or, abandoned before
    it starts, never does; settle, after the wait or an interrupt, leaves
    no call running on what the caller frees next."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self.call = call
        self.lock = threading.Lock()
        self.state = "queued"  # then "running" or "abandoned"
        self.done = threading.Event()
        self.status = -1
        self.error: Optional[BaseException] = None

    def run(self) -> None:
        with self.lock:
            if self.state == "abandoned":
                return
            self.state = "running"
        try:
            self.status = int(self.call())
        except BaseException as e:  # the caller's to raise
            self.error = e
        finally:
            self.done.set()

    def settle(self, ctx: ctypes.c_void_p) -> None:
        """The call abandoned if it has not started, else cancelled (where
        still running: it stops within a tile) and waited for, whatever
        interrupts come meanwhile."""
        while True:
            try:
                with self.lock:
                    if self.state == "queued":
                        self.state = "abandoned"
                        self.done.set()
                if not self.done.is_set():
                    _L.mcp_context_cancel(ctx)
                self.done.wait()
                return
            except KeyboardInterrupt:
                continue


_POOL: List[concurrent.futures.ThreadPoolExecutor] = []
_POOL_LOCK = threading.Lock()


def _forget_pool() -> None:
    """In a forked child: the parent's pool has no threads here."""
    global _POOL_LOCK
    _POOL.clear()
    _POOL_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def _submit(job: _Call) -> None:
    """job on a kept thread of the pool, each keeping its OpenMP team from
    call to call; on this thread when the interpreter is shutting down
    (no new threads then)."""
    with _POOL_LOCK:
        if not _POOL:
            _POOL.append(concurrent.futures.ThreadPoolExecutor(
                max_workers=max(4, os.cpu_count() or 1), thread_name_prefix="mcprice"))
        pool = _POOL[0]
    try:
        pool.submit(job.run)
    except RuntimeError:
        job.run()


class _Interrupt:
    """On the main thread, with Python's own SIGINT handler in place, Ctrl-C
    during a call only cancels it (and is noted), so that no
    KeyboardInterrupt can unwind this thread while the call runs;
    raise_caught raises it once the call has returned."""

    def __init__(self, ctx: ctypes.c_void_p) -> None:
        self.ctx = ctx
        self.caught = False
        self.old: Any = None
        if (threading.current_thread() is threading.main_thread() and
                signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            self.old = signal.signal(signal.SIGINT, self.on_sigint)

    def on_sigint(self, signum: int, frame: Any) -> None:
        self.caught = True
        _L.mcp_context_cancel(self.ctx)

    def restore(self) -> None:
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)
            self.old = None

    def raise_caught(self) -> None:
        if self.caught:
            raise KeyboardInterrupt


def _priced(ctx: ctypes.c_void_p, progress: Progress, call: Callable[[], Any],
            release: Callable[[], Any]) -> int:
    """call, a pricing call on ctx, on a kept thread (_submit), its status:
    Ctrl-C here cancels it (mcp_context_cancel) and KeyboardInterrupt is
    raised once it has stopped, within a tile, release freeing what it
    made; progress reports the fraction done (_reporter): a function
    returning False cancels, one raising an exception cancels and the
    exception is raised again."""
    report, close = _reporter(progress)
    errors: List[BaseException] = []

    def on_progress(fraction: float, user: Optional[int]) -> None:
        try:
            stop = report is not None and report(fraction) is False
        except BaseException as e:  # not into ctypes, which would print it and go on
            errors.append(e)
            stop = True
        if stop:
            _L.mcp_context_cancel(ctx)

    fn = _lib.PROGRESS(on_progress) if report is not None else _lib.PROGRESS(0)  # 0: NULL
    _L.mcp_context_set_progress(ctx, fn, None)
    job = _Call(call)
    interrupt = _Interrupt(ctx)
    try:
        try:
            _submit(job)
            while not job.done.wait(0.05):
                pass
        finally:
            job.settle(ctx)
            interrupt.restore()
            close()
        interrupt.raise_caught()
        if job.error is not None:
            raise job.error
        if errors:
            raise errors[0]
    except BaseException:
        if job.status == 0:
            release()
        raise
    return job.status


def _run(market: Source, portfolio: Source, opts: Dict[str, Any],
         body: Callable[[ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p], _T]) -> _T:
    m = _load("market", market)
    p = run = ctx = None
    try:
        run = ctypes.c_void_p()
        p = _load("portfolio", portfolio, m, run)
        _apply_portfolio(p, opts)
        ctx = _context(run, opts)
        return body(ctx, m, p)
    finally:
        if ctx is not None:
            _L.mcp_context_destroy(ctx)
        if run is not None:
            _L.mcp_run_options_destroy(run)
        if p is not None:
            _L.mcp_portfolio_destroy(p)
        _L.mcp_market_destroy(m)


def price(market: Source, portfolio: Source, greeks: Optional[Union[str, Sequence[str]]] = None,
          greek_method: str = "auto", buckets: bool = False, **run_options: Any) -> Results:
    """Prices the portfolio in the market: Results.  greeks: "all", a
    comma-separated list or a list of delta, gamma, vega, rho, theta,
    cross-gamma, correlation (of a multi-asset trade's pairs, by adjoint:
    "correlation:ACME:BOLT"), dividend (d/dq, by adjoint; "all" leaves
    these two out);
    greek_method "auto" or "bump"; buckets: also
    vega and rho by bucket (curve piece, surface node), by adjoint
    ("vega@(0.5,1]")."""
    _options(run_options)
    progress = _progress(run_options)
    if greek_method not in ("auto", "bump"):
        raise _usage("greek_method", f"expected auto or bump, got {greek_method!r}")
    if buckets and (greeks is None or greek_method == "bump"):
        raise _usage("buckets", "expected greeks (delta, vega or rho) by the auto method")

    def body(ctx: ctypes.c_void_p, m: ctypes.c_void_p, p: ctypes.c_void_p) -> Results:
        r = ctypes.c_void_p()
        if greeks is None:
            st = _priced(ctx, progress, lambda: _L.mcp_price(ctx, m, p, ctypes.byref(r)),
                         lambda: _L.mcp_results_destroy(r))
        else:
            g = ctypes.c_void_p()
            _check(_L.mcp_greeks_create(ctypes.byref(g)), None)
            try:
                names = greeks if isinstance(greeks, str) else ",".join(greeks)
                st = _L.mcp_greeks_parse(g, _c_str("greeks", names))
                if st != 0:
                    raise _refused(st, _L.mcp_greeks_last_error(g).decode(errors="replace"),
                                   "greeks")
                _L.mcp_greeks_set_bump_only(g, greek_method == "bump")
                _L.mcp_greeks_set_buckets(g, bool(buckets))
                st = _priced(ctx, progress,
                             lambda: _L.mcp_price_greeks(ctx, m, p, g, ctypes.byref(r)),
                             lambda: _L.mcp_results_destroy(r))
            finally:
                _L.mcp_greeks_destroy(g)
        _check(st, _L.mcp_context_last_error(ctx).decode(errors="replace"))
        try:
            return _results(r)
        finally:
            _L.mcp_results_destroy(r)

    results = _run(market, portfolio, run_options, body)
    for t in results.trades:  # the tool's "mcprice: warning: trade ..." lines
        for name in t.warnings:
            warnings.warn(f"mcprice: trade '{t.id}': {_warning_text(name)}", McpriceWarning,
                          stacklevel=2)
    return results


def _warning_text(name: str) -> str:
    """A warning's sentence (mcp_warning_text) from its name."""
    for b in range(_WARNINGS):
        if _str(_L.mcp_warning_name(1 << b)) == name:
            return _str(_L.mcp_warning_text(1 << b))
    return name


def scenarios(market: Source, portfolio: Source, grid: Source,
              levels: Sequence[float] = (0.99, 0.975),
              **run_options: Any) -> Union[ScenarioResults, ScenarioSetResults]:
    """Revalues the portfolio at every point of the grid of shifts (a
    scenario file's path or dict) on the same paths: ScenarioResults; or,
    for a scenario set, at its base and each scenario, with historical VaR
    and ES at each of levels (0.5 <= level < 1): ScenarioSetResults."""
    _options(run_options)
    progress = _progress(run_options)
    at = tuple(_float("levels", x) for x in levels)
    for x in at:
        if not 0.5 <= x < 1:
            raise _usage("levels", f"expected numbers from 0.5 to below 1, got {x!r}")

    def body(ctx: ctypes.c_void_p, m: ctypes.c_void_p,
             p: ctypes.c_void_p) -> Union[ScenarioResults, ScenarioSetResults]:
        s = _load("scenarios", grid)
        r = ctypes.c_void_p()
        try:
            st = _priced(ctx, progress,
                         lambda: _L.mcp_price_scenarios(ctx, m, p, s, ctypes.byref(r)),
                         lambda: _L.mcp_scenario_results_destroy(r))
        finally:
            _L.mcp_scenarios_destroy(s)
        _check(st, _L.mcp_context_last_error(ctx).decode(errors="replace"))
        try:
            if _L.mcp_scenario_results_scenarios(r):
                return _set_results(r, at)
            return _scenario_results(r)
        finally:
            _L.mcp_scenario_results_destroy(r)

    return _run(market, portfolio, run_options, body)


def frtb(market: Source, portfolio: Source, **run_options: Any) -> FrtbResults:
    """The sensitivities of FRTB's standardised approach of every trade and
    of the book, each revalued on the same paths (mcp_price_frtb): equity
    delta, vega by option maturity and curvature by underlying, rate delta
    by currency and tenor.  The market gives each underlying's currency and
    frtb_bucket.  FrtbResults."""
    _options(run_options)
    progress = _progress(run_options)

    def body(ctx: ctypes.c_void_p, m: ctypes.c_void_p, p: ctypes.c_void_p) -> FrtbResults:
        f = ctypes.c_void_p()
        _check(_priced(ctx, progress, lambda: _L.mcp_price_frtb(ctx, m, p, ctypes.byref(f)),
                       lambda: _L.mcp_frtb_destroy(f)),
               _L.mcp_context_last_error(ctx).decode(errors="replace"))
        try:
            rec = _lib.FrtbRecord_()
            records = []
            for i in range(_L.mcp_frtb_count(f)):
                _check(_L.mcp_frtb_record_at(f, i, ctypes.byref(rec)), None)
                records.append(FrtbRecord(_s(rec.trade_id), _str(_L.mcp_frtb_risk_name(rec.risk)),
                                          _str(rec.qualifier), rec.bucket, rec.tenor, rec.amount,
                                          _str(rec.currency)))
            text, n = ctypes.c_void_p(), ctypes.c_size_t()
            _check(_L.mcp_frtb_crif(f, ctypes.byref(text), ctypes.byref(n)), None)
            try:
                crif = ctypes.string_at(text, n.value).decode()
            finally:
                _L.mcp_free(text)
            return FrtbResults(tuple(records), crif)
        finally:
            _L.mcp_frtb_destroy(f)

    return _run(market, portfolio, run_options, body)

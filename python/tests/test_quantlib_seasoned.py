"""Seasoned trades against QuantLib's engines that take a history: a
geometric Asian with past fixings (its closed form), an arithmetic one (its
Monte Carlo with a control variate) and continuously watched lookbacks with a
running extremum (their closed forms).  Skipped where QuantLib is not
installed."""
import math

import pytest

import mcprice

ql = pytest.importorskip("QuantLib")

SPOT, RATE, DIVIDEND, VOL = 100.0, 0.03, 0.01, 0.25
TODAY = "2026-11-27"
PAST = [("2026-05-27", 95.0), ("2026-08-27", 105.0)]
FUTURE = ["2027-02-26", "2027-05-27", "2027-08-27", "2027-11-26"]

MARKET = {"valuation_date": TODAY, "rate": RATE,
          "underlyings": [{"name": "A", "spot": SPOT, "dividend": DIVIDEND, "volatility": VOL}]}


def qdate(text):
    y, m, d = (int(x) for x in text.split("-"))
    return ql.Date(d, m, y)


@pytest.fixture(scope="module")
def process():
    today = qdate(TODAY)
    ql.Settings.instance().evaluationDate = today
    dc = ql.Actual365Fixed()
    curve = lambda r: ql.YieldTermStructureHandle(ql.FlatForward(today, r, dc))
    vol = ql.BlackVolTermStructureHandle(ql.BlackConstantVol(today, ql.NullCalendar(), VOL, dc))
    return ql.BlackScholesMertonProcess(ql.QuoteHandle(ql.SimpleQuote(SPOT)), curve(DIVIDEND),
                                        curve(RATE), vol)


def asian(average, strike):
    return {"id": f"{average}-{strike:g}", "product": "asian", "average": average,
            "type": "call", "underlying": "A", "strike": strike,
            "fixings": [d for d, _ in PAST] + FUTURE, "past_fixings": [s for _, s in PAST]}


def ql_asian(process, average, strike, engine):
    acc = math.prod(s for _, s in PAST) if average == ql.Average.Geometric else sum(
        s for _, s in PAST)
    option = ql.DiscreteAveragingAsianOption(
        average, acc, len(PAST), [qdate(d) for d in FUTURE],
        ql.PlainVanillaPayoff(ql.Option.Call, strike), ql.EuropeanExercise(qdate(FUTURE[-1])))
    option.setPricingEngine(engine)
    return option


def test_seasoned_asians(process):
    book = {"run": {"paths": 400000, "seed": 7},
            "trades": [asian("geometric", 100), asian("arithmetic", 102)]}
    r = mcprice.price(MARKET, book, backend="cpu")
    geo = ql_asian(process, ql.Average.Geometric, 100,
                   ql.AnalyticDiscreteGeometricAveragePriceAsianEngine(process)).NPV()
    g = r["geometric-100"]
    print(f"\n  geometric {g.price:.6f} +- {g.std_error:.6f}, QuantLib {geo:.6f}")
    assert abs(g.price - geo) <= 4 * g.std_error, (g.price, g.std_error, geo)
    mc = ql_asian(process, ql.Average.Arithmetic, 102,
                  ql.MCDiscreteArithmeticAPEngine(process, "pseudorandom", controlVariate=True,
                                                  requiredSamples=200000, seed=42))
    a = r["arithmetic-102"]
    both = math.hypot(a.std_error, mc.errorEstimate())
    print(f"  arithmetic {a.price:.6f} +- {a.std_error:.6f}, QuantLib's MC {mc.NPV():.6f} "
          f"+- {mc.errorEstimate():.6f}")
    assert abs(a.price - mc.NPV()) <= 4 * both, (a.price, a.std_error, mc.NPV(), both)


def test_seasoned_lookbacks(process):
    maturity = "2027-11-26"
    book = {"run": {"paths": 400000, "seed": 8}, "trades": [
        {"id": "floating", "product": "lookback", "type": "call", "underlying": "A",
         "strike_kind": "floating", "monitoring": "bridge", "maturity": maturity,
         "extremum": 90},
        {"id": "fixed", "product": "lookback", "type": "call", "underlying": "A", "strike": 100,
         "monitoring": "bridge", "maturity": maturity, "extremum": 108}]}
    r = mcprice.price(MARKET, book, backend="cpu")
    exercise = ql.EuropeanExercise(qdate(maturity))
    floating = ql.ContinuousFloatingLookbackOption(
        90.0, ql.FloatingTypePayoff(ql.Option.Call), exercise)
    floating.setPricingEngine(ql.AnalyticContinuousFloatingLookbackEngine(process))
    fixed = ql.ContinuousFixedLookbackOption(
        108.0, ql.PlainVanillaPayoff(ql.Option.Call, 100), exercise)
    fixed.setPricingEngine(ql.AnalyticContinuousFixedLookbackEngine(process))
    for trade_id, want in (("floating", floating.NPV()), ("fixed", fixed.NPV())):
        e = r[trade_id]
        print(f"  {trade_id} lookback {e.price:.6f} +- {e.std_error:.6f}, QuantLib {want:.6f}")
        assert abs(e.price - want) <= 4 * e.std_error, (trade_id, e.price, e.std_error, want)

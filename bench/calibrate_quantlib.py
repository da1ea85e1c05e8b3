"""calibrate_quantlib.py: QuantLib's Heston calibration, the peer of
bench/calibrate, on the same quotes file and from the same start.

    python3 calibrate_quantlib.py QUOTES.json SPOT RATE DIVIDEND V0 KAPPA THETA XI RHO

QUOTES.json has "maturities" (whole days over 365, so that QuantLib's
ACT/365F dates give the same times), "strikes" and "volatilities".  For
each of QuantLib's error measures, prints one line:
    ERROR median_ms iterations v0 kappa theta xi rho rmse_vol_points
or "none" when QuantLib is not installed."""
import json
import statistics
import sys
import time

try:
    import QuantLib as ql
except ImportError:
    print("none")
    sys.exit(0)


def main():
    quotes = json.load(open(sys.argv[1]))
    spot, rate, dividend = (float(x) for x in sys.argv[2:5])
    start = [float(x) for x in sys.argv[5:10]]
    today = ql.Date(30, 11, 2026)
    ql.Settings.instance().evaluationDate = today
    dc = ql.Actual365Fixed()
    rts = ql.YieldTermStructureHandle(ql.FlatForward(today, rate, dc))
    qts = ql.YieldTermStructureHandle(ql.FlatForward(today, dividend, dc))
    s0 = ql.QuoteHandle(ql.SimpleQuote(spot))
    cases = [("ImpliedVolError", ql.BlackCalibrationHelper.ImpliedVolError),
             ("RelativePriceError", ql.BlackCalibrationHelper.RelativePriceError)]
    for name, kind in cases:
        times, fitted = [], None
        for rep in range(5):
            v0, kappa, theta, xi, rho = start
            process = ql.HestonProcess(rts, qts, s0, v0, kappa, theta, xi, rho)
            model = ql.HestonModel(process)
            engine = ql.AnalyticHestonEngine(model)
            helpers = []
            for i, t in enumerate(quotes["maturities"]):
                days = round(t * 365)
                for k, strike in enumerate(quotes["strikes"]):
                    vol = quotes["volatilities"][i][k]
                    if vol is None:
                        continue
                    h = ql.HestonModelHelper(ql.Period(days, ql.Days), ql.NullCalendar(), spot,
                                             strike, ql.QuoteHandle(ql.SimpleQuote(vol)), rts,
                                             qts, kind)
                    h.setPricingEngine(engine)
                    helpers.append((h, vol))
            lm = ql.LevenbergMarquardt(1e-8, 1e-8, 1e-8)
            end = ql.EndCriteria(500, 300, 1e-8, 1e-8, 1e-8)
            t0 = time.perf_counter()
            model.calibrate([h for h, _ in helpers], lm, end)
            times.append(1e3 * (time.perf_counter() - t0))
            fitted = (model, helpers)
        model, helpers = fitted
        p = model.params()
        err = 0.0
        for h, vol in helpers:
            implied = h.impliedVolatility(h.modelValue(), 1e-12, 5000, 1e-4, 5.0)
            err += (100 * (implied - vol)) ** 2
        rmse = (err / len(helpers)) ** 0.5
        # QuantLib's params(): theta, kappa, sigma (xi), rho, v0
        print(name, f"{statistics.median(times):.3f}", "-", f"{p[4]:.10f}", f"{p[1]:.10f}",
              f"{p[0]:.10f}", f"{p[2]:.10f}", f"{p[3]:.10f}", f"{rmse:.6g}")


main()

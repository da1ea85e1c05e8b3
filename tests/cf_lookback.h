/* cf_lookback.h: continuously monitored lookback options under
 * Black-Scholes with a continuous dividend yield, b = r - q.
 *   Floating strike: Goldman, Sosin & Gatto (1979), call S_T - min, put
 *   max - S_T.  Fixed strike: Conze & Viswanathan (1991), call (max - K)^+,
 *   put (K - min)^+.  Formulas as in Haug ("The Complete Guide to Option
 *   Pricing Formulas", 2nd ed., 2007), written here as a Black
 *   price plus one extremum term: with F = S e^{bT}, s = vol sqrt(T),
 *     floating call (min m)    = Black_call(F, m) - S e^{-rT} H(log(S/m), -1)
 *     floating put  (max M)    = Black_put(F, M)  + S e^{-rT} H(log(S/M), +1)
 *     fixed call, X = max(K,M) = e^{-rT}(X - K) + Black_call(F, X) + S e^{-rT} H(log(S/X), +1)
 *     fixed put,  X = min(K,m) = e^{-rT}(K - X) + Black_put(F, X)  - S e^{-rT} H(log(S/X), -1)
 *   where, with d = (L + (b + vol^2/2) T) / s,
 *     H(L, e) = vol^2/(2b) [e^{bT} N(e d) - e^{-2bL/vol^2} N(e (d - 2b sqrt(T)/vol))].
 *   At b = 0 H is 0/0; its limit (l'Hopital in b) is
 *     H0(L, e) = (vol^2 T/2 + L) N(e d0) + e s n(d0),  d0 = (L + vol^2 T/2) / s.
 *   For |b| < 1e-5, where the direct form loses digits to cancellation, H is
 *   interpolated linearly in b between H0 and the direct value at b = +-1e-5
 *   (interpolation error O(1e-10) relative, rounding error O(1e-12)). */
#ifndef MCP_TESTS_CF_LOOKBACK_H
#define MCP_TESTS_CF_LOOKBACK_H

#include <math.h>
#include "tests/closed_form.h"

#ifndef CF_PI
#define CF_PI 3.14159265358979323846264338327950288
#endif

/* Broadie, Glasserman & Kou (1997) continuity correction: a barrier
 * monitored every dt behaves as a continuous one shifted by
 * e^{+-beta vol sqrt(dt)}, beta = -zeta(1/2)/sqrt(2 pi), zeta(1/2) =
 * -1.46035450880958681289... (Riemann zeta at 1/2). */
static inline double cf_bgk_beta(void)
{
  return 1.4603545088095868128894991525152980125 / sqrt(2 * CF_PI);
}

static inline double cf_lookback_h_direct(double b, double l, double e, double maturity,
                                          double vol)
{
  double s = vol * sqrt(maturity), d = (l + (b + 0.5 * vol * vol) * maturity) / s;
  return vol * vol / (2 * b) *
         (exp(b * maturity) * cf_norm_cdf(e * d) -
          exp(-2 * b * l / (vol * vol)) * cf_norm_cdf(e * (d - 2 * b * sqrt(maturity) / vol)));
}

/* The extremum term H(L, e) of the header comment, finite at b = 0. */
static inline double cf_lookback_h(double b, double l, double e, double maturity, double vol)
{
  const double delta = 1e-5;
  if (fabs(b) >= delta)
    return cf_lookback_h_direct(b, l, e, maturity, vol);
  double s = vol * sqrt(maturity), d0 = (l + 0.5 * vol * vol * maturity) / s;
  double h0 = (0.5 * vol * vol * maturity + l) * cf_norm_cdf(e * d0) +
              e * s * exp(-0.5 * d0 * d0) / sqrt(2 * CF_PI);
  if (b == 0)
    return h0;
  double edge = copysign(delta, b);
  return h0 + (b / edge) * (cf_lookback_h_direct(edge, l, e, maturity, vol) - h0);
}

/* Floating strike, seasoned: `extreme` is the running minimum (call, <= spot)
 * or maximum (put, >= spot) observed so far. */
static inline double cf_lookback_floating_running(mcp_option_type type, double spot,
                                                  double extreme, double maturity, double rate,
                                                  double dividend, double vol)
{
  if (maturity <= 0)
    return type == MCP_CALL ? spot - extreme : extreme - spot;
  double b = rate - dividend, df = exp(-rate * maturity);
  double fwd = spot * exp(b * maturity), s = vol * sqrt(maturity), l = log(spot / extreme);
  if (type == MCP_CALL)
    return cf_black(MCP_CALL, fwd, extreme, s, df) -
           spot * df * cf_lookback_h(b, l, -1, maturity, vol);
  return cf_black(MCP_PUT, fwd, extreme, s, df) + spot * df * cf_lookback_h(b, l, 1, maturity, vol);
}

static inline double cf_lookback_floating(mcp_option_type type, double spot, double maturity,
                                          double rate, double dividend, double vol)
{
  return cf_lookback_floating_running(type, spot, spot, maturity, rate, dividend, vol);
}

/* Fixed strike, seasoned: `extreme` is the running maximum (call, >= spot)
 * or minimum (put, <= spot) observed so far. */
static inline double cf_lookback_fixed_running(mcp_option_type type, double spot, double extreme,
                                               double strike, double maturity, double rate,
                                               double dividend, double vol)
{
  if (maturity <= 0)
    return fmax(type == MCP_CALL ? extreme - strike : strike - extreme, 0.0);
  double b = rate - dividend, df = exp(-rate * maturity);
  double fwd = spot * exp(b * maturity), s = vol * sqrt(maturity);
  if (type == MCP_CALL) {
    double x = fmax(strike, extreme);
    return df * (x - strike) + cf_black(MCP_CALL, fwd, x, s, df) +
           spot * df * cf_lookback_h(b, log(spot / x), 1, maturity, vol);
  }
  double x = fmin(strike, extreme);
  return df * (strike - x) + cf_black(MCP_PUT, fwd, x, s, df) -
         spot * df * cf_lookback_h(b, log(spot / x), -1, maturity, vol);
}

static inline double cf_lookback_fixed(mcp_option_type type, double spot, double strike,
                                       double maturity, double rate, double dividend, double vol)
{
  return cf_lookback_fixed_running(type, spot, spot, strike, maturity, rate, dividend, vol);
}

#endif

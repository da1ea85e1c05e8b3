/* cf_barrier.h: single barrier options, continuously monitored, under
 * Black-Scholes with a continuous dividend yield.
 *   Merton (1973), Reiner & Rubinstein (1991), in the notation of Haug
 *   ("The Complete Guide to Option Pricing Formulas", 2nd ed., 2007):
 *   with b = r - q, mu = (b - vol^2/2) / vol^2, s = vol sqrt(T),
 *   phi = +1 call / -1 put, eta = +1 down / -1 up,
 *     x1 = log(S/K)/s + (1+mu) s,        x2 = log(S/H)/s + (1+mu) s,
 *     y1 = log(H^2/(S K))/s + (1+mu) s,  y2 = log(H/S)/s + (1+mu) s,
 *     A = phi S e^{(b-r)T} N(phi x1) - phi K e^{-rT} N(phi (x1 - s))
 *     B = the same with x2,
 *     C = phi S e^{(b-r)T} (H/S)^{2(mu+1)} N(eta y1)
 *         - phi K e^{-rT} (H/S)^{2 mu} N(eta (y1 - s))
 *     D = the same with y2;
 *   each of the 8 kinds is a combination of A..D (see cf_barrier_norebate).
 *   Rebate convention (differs from Haug for knock-outs, whose rebate he pays
 *   at the hit): the rebate is paid AT MATURITY, by a knock-out if the
 *   barrier was hit, by a knock-in if it never was, so it is worth
 *   rebate e^{-rT} P(hit) or rebate e^{-rT} (1 - P(hit)), and
 *   in + out = vanilla + rebate e^{-rT} holds term by term.
 *   Assumes vol > 0 and strike > 0. */
#ifndef MCP_TESTS_CF_BARRIER_H
#define MCP_TESTS_CF_BARRIER_H

#include <math.h>
#include "tests/closed_form.h"

/* Probability that S_t = S e^{drift t + vol W_t} touches the barrier by
 * `maturity`: first passage of a drifted Brownian motion (reflection
 * principle, e.g. Harrison 1985, 1.8), with x = log(H/S), m = drift,
 *   down (x < 0): N((x - mT)/s) + e^{2mx/vol^2} N((x + mT)/s),
 *   up   (x > 0): N((mT - x)/s) + e^{2mx/vol^2} N((-x - mT)/s).
 * 1 when the spot is already at or beyond the barrier. */
static inline double cf_barrier_hit_probability(int up, double spot, double barrier,
                                                double maturity, double drift, double vol)
{
  if (up ? spot >= barrier : spot <= barrier)
    return 1.0;
  if (maturity <= 0)
    return 0.0;
  double x = log(barrier / spot), mt = drift * maturity, s = vol * sqrt(maturity);
  double reflect = exp(2 * drift * x / (vol * vol));
  double p = up ? cf_norm_cdf((mt - x) / s) + reflect * cf_norm_cdf((-x - mt) / s)
                : cf_norm_cdf((x - mt) / s) + reflect * cf_norm_cdf((x + mt) / s);
  return fmin(p, 1.0);
}

/* The option part (no rebate) of a barrier option with the spot strictly on
 * the live side of the barrier and maturity > 0. */
static inline double cf_barrier_norebate(mcp_option_type type, int up, int knock_in, double spot,
                                         double strike, double barrier, double maturity,
                                         double rate, double dividend, double vol)
{
  double phi = type == MCP_CALL ? 1.0 : -1.0, eta = up ? -1.0 : 1.0;
  double s = vol * sqrt(maturity), mu = (rate - dividend - 0.5 * vol * vol) / (vol * vol);
  double fs = spot * exp(-dividend * maturity), fk = strike * exp(-rate * maturity);
  double hs = barrier / spot;
  double p1 = pow(hs, 2 * (mu + 1)), p0 = pow(hs, 2 * mu);
  double x1 = log(spot / strike) / s + (1 + mu) * s, x2 = log(spot / barrier) / s + (1 + mu) * s;
  double y1 = log(barrier * barrier / (spot * strike)) / s + (1 + mu) * s;
  double y2 = log(hs) / s + (1 + mu) * s;
  double a = phi * fs * cf_norm_cdf(phi * x1) - phi * fk * cf_norm_cdf(phi * (x1 - s));
  double b = phi * fs * cf_norm_cdf(phi * x2) - phi * fk * cf_norm_cdf(phi * (x2 - s));
  double c = phi * fs * p1 * cf_norm_cdf(eta * y1) - phi * fk * p0 * cf_norm_cdf(eta * (y1 - s));
  double d = phi * fs * p1 * cf_norm_cdf(eta * y2) - phi * fk * p0 * cf_norm_cdf(eta * (y2 - s));
  int above = strike > barrier, call = type == MCP_CALL;
  /* Haug's table of the in and out values of each kind, by K > H or K <= H. */
  if (!up && call)
    return knock_in ? (above ? c : a - b + d) : (above ? a - c : b - d);
  if (up && call)
    return knock_in ? (above ? a : b - c + d) : (above ? 0.0 : a - b + c - d);
  if (!up && !call)
    return knock_in ? (above ? b - c + d : a) : (above ? a - b + c - d : 0.0);
  return knock_in ? (above ? a - b + d : c) : (above ? b - d : a - c);
}

static inline double cf_barrier(mcp_option_type type, int up, int knock_in, double spot,
                                double strike, double barrier, double rebate, double maturity,
                                double rate, double dividend, double vol)
{
  double df = exp(-rate * maturity);
  int knocked = up ? spot >= barrier : spot <= barrier;
  if (knocked) /* hit at t = 0: the vanilla, or the rebate */
    return knock_in ? cf_black_scholes(type, spot, strike, maturity, rate, dividend, vol)
                    : rebate * df;
  if (maturity <= 0) /* never hit */
    return knock_in ? rebate : fmax(type == MCP_CALL ? spot - strike : strike - spot, 0.0);
  double hit = cf_barrier_hit_probability(up, spot, barrier, maturity,
                                          rate - dividend - 0.5 * vol * vol, vol);
  double option = cf_barrier_norebate(type, up, knock_in, spot, strike, barrier, maturity, rate,
                                      dividend, vol);
  return option + rebate * df * (knock_in ? 1.0 - hit : hit);
}

#endif

/* cf_multi.h: options on several lognormal assets (Black-Scholes, each with
 * its own dividend yield, correlated Brownian motions). */
#ifndef MCP_TESTS_CF_MULTI_H
#define MCP_TESTS_CF_MULTI_H

#include <math.h>
#include "tests/cf_quad.h"
#include "tests/closed_form.h"

/* Integrand of the bivariate normal in theta = asin(r): the density
 * exp(-(a^2 - 2ab sin t + b^2) / (2 cos^2 t)) / (2 pi), the exponent
 * rearranged so that nothing cancels near t = +-pi/2:
 *   a^2 + b^2 - 2ab s = (a - b)^2 + 2ab (1 - s) = (a + b)^2 - 2ab (1 + s),
 *   cos^2 t = (1 - s)(1 + s),  1 -+ s = 2 sin^2(pi/4 -+ t/2). */
typedef struct cf_bvn_ctx {
  double a, b;
} cf_bvn_ctx;

static inline double cf_bvn_integrand(double t, void *ctx)
{
  const cf_bvn_ctx *c = ctx;
  double sm = sin(0.25 * CF_PI - 0.5 * t), sp = sin(0.25 * CF_PI + 0.5 * t);
  double om = 2 * sm * sm, op = 2 * sp * sp; /* 1 - sin t, 1 + sin t */
  double e = t >= 0 ? (c->a - c->b) * (c->a - c->b) / (2 * om * op) + c->a * c->b / op
                    : (c->a + c->b) * (c->a + c->b) / (2 * om * op) - c->a * c->b / om;
  return exp(-e) / (2 * CF_PI);
}

/* P(X <= a, Y <= b) for standard normals with correlation rho.
 *   Plackett (1954): dM/drho is the bivariate density, so
 *   M(a, b, rho) = N(a) N(b) + int_0^rho phi2(a, b; r) dr, and with
 *   r = sin t the integrand is smooth and bounded (Drezner & Wesolowsky
 *   1990, Genz 2004 use the same form with fixed Gauss-Legendre rules; here
 *   the integral is adaptive, to about 1e-15 absolute). */
static inline double cf_bivariate_normal_cdf(double a, double b, double rho)
{
  if (a == -INFINITY || b == -INFINITY)
    return 0.0;
  if (a == INFINITY)
    return cf_norm_cdf(b);
  if (b == INFINITY)
    return cf_norm_cdf(a);
  if (rho >= 1)
    return cf_norm_cdf(fmin(a, b));
  if (rho <= -1)
    return fmax(0.0, cf_norm_cdf(a) - cf_norm_cdf(-b));
  cf_bvn_ctx c = {a, b};
  double m = cf_norm_cdf(a) * cf_norm_cdf(b) +
             cf_integrate(cf_bvn_integrand, &c, 0.0, asin(rho), 1e-15, 0.0);
  return fmin(fmax(m, 0.0), 1.0);
}

/* Margrabe (1978): the right to exchange asset 2 for asset 1 at T,
 * e^{-rT} E[(S1_T - S2_T)^+].  Asset 2 as numeraire: a Black call on
 * S1/S2 with forward S1 e^{-q1 T} / (S2 e^{-q2 T}), strike 1 and
 * vol^2 = vol1^2 + vol2^2 - 2 corr vol1 vol2. */
static inline double cf_margrabe(double s1, double s2, double maturity, double rate, double q1,
                                 double q2, double vol1, double vol2, double corr)
{
  (void)rate; /* the rates cancel: both legs are assets */
  double p1 = s1 * exp(-q1 * maturity), p2 = s2 * exp(-q2 * maturity);
  double vol = sqrt(fmax(vol1 * vol1 + vol2 * vol2 - 2 * corr * vol1 * vol2, 0.0));
  return p2 * cf_black(MCP_CALL, p1 / p2, 1.0, vol * sqrt(maturity), 1.0);
}

/* Stulz (1982), Johnson (1987): calls on max(S1, S2) (best = 1) or
 * min(S1, S2) (best = 0), as in Haug (2007, "The Complete Guide to Option
 * Pricing Formulas"), with
 *   s^2 = vol1^2 + vol2^2 - 2 corr vol1 vol2, rho1 = (vol1 - corr vol2)/s,
 *   rho2 = (vol2 - corr vol1)/s, d = (log(S1/S2) + (q2 - q1 + s^2/2) T)/(s sqrt T),
 *   yi = (log(Si/K) + (r - qi + voli^2/2) T)/(voli sqrt T),
 *   c_max = S1 e^{-q1 T} M(y1, d, rho1) + S2 e^{-q2 T} M(y2, s sqrt T - d, rho2)
 *           - K e^{-rT} [1 - M(vol1 sqrt T - y1, vol2 sqrt T - y2, corr)]
 *   c_min = S1 e^{-q1 T} M(y1, -d, -rho1) + S2 e^{-q2 T} M(y2, d - s sqrt T, -rho2)
 *           - K e^{-rT} M(y1 - vol1 sqrt T, y2 - vol2 sqrt T, corr).
 * Puts by parity, p = c - PV(Y) + K e^{-rT}, with the present values
 * PV(max) = S2 e^{-q2 T} + Margrabe(S1, S2), PV(min) = S1 e^{-q1 T} - Margrabe(S1, S2).
 * Needs s > 0 (not both perfectly correlated and equally volatile). */
static inline double cf_stulz(mcp_option_type type, int best, double s1, double s2,
                              double strike, double maturity, double rate, double q1, double q2,
                              double vol1, double vol2, double corr)
{
  double df = exp(-rate * maturity), sq = sqrt(maturity);
  double p1 = s1 * exp(-q1 * maturity), p2 = s2 * exp(-q2 * maturity);
  double exch = cf_margrabe(s1, s2, maturity, rate, q1, q2, vol1, vol2, corr);
  double pv = best ? p2 + exch : p1 - exch;
  double call;
  if (strike <= 0) {
    call = pv - strike * df;
  } else {
    double s = sqrt(vol1 * vol1 + vol2 * vol2 - 2 * corr * vol1 * vol2);
    double rho1 = (vol1 - corr * vol2) / s, rho2 = (vol2 - corr * vol1) / s;
    double d = (log(s1 / s2) + (q2 - q1 + 0.5 * s * s) * maturity) / (s * sq);
    double y1 = (log(s1 / strike) + (rate - q1 + 0.5 * vol1 * vol1) * maturity) / (vol1 * sq);
    double y2 = (log(s2 / strike) + (rate - q2 + 0.5 * vol2 * vol2) * maturity) / (vol2 * sq);
    if (best)
      call = p1 * cf_bivariate_normal_cdf(y1, d, rho1) +
             p2 * cf_bivariate_normal_cdf(y2, s * sq - d, rho2) -
             strike * df * (1 - cf_bivariate_normal_cdf(vol1 * sq - y1, vol2 * sq - y2, corr));
    else
      call = p1 * cf_bivariate_normal_cdf(y1, -d, -rho1) +
             p2 * cf_bivariate_normal_cdf(y2, d - s * sq, -rho2) -
             strike * df * cf_bivariate_normal_cdf(y1 - vol1 * sq, y2 - vol2 * sq, corr);
  }
  return type == MCP_CALL ? call : call - pv + strike * df;
}

/* Option on the geometric basket G = prod Si^wi: log G_T is normal with
 *   mean sum wi (log Si + (r - qi - voli^2/2) T),
 *   variance T sum_ij wi wj voli volj corr_ij,
 * so Black's formula applies with F = E[G_T] (e.g. Korn & Zeytun 2013). */
static inline double cf_geometric_basket(mcp_option_type type, int n, const double *spot,
                                         const double *weight, const double *q,
                                         const double *vol, const double *corr, double strike,
                                         double maturity, double rate)
{
  double mean = 0, var = 0;
  for (int i = 0; i < n; i++) {
    mean += weight[i] * (log(spot[i]) + (rate - q[i] - 0.5 * vol[i] * vol[i]) * maturity);
    for (int j = 0; j < n; j++)
      var += weight[i] * weight[j] * vol[i] * vol[j] * corr[i * n + j];
  }
  var = fmax(var, 0.0) * maturity;
  return cf_black(type, exp(mean + 0.5 * var), strike, sqrt(var), exp(-rate * maturity));
}

#endif

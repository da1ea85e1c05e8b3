/* closed_form.h: reference prices under Black-Scholes, written from the
 * textbook formulas, against which the Monte Carlo engine is tested.
 *   Black (1976) / Merton (1973): a call on a lognormal X with forward F and
 *     total volatility s = stddev(log X) is df [F N(d1) - K N(d2)],
 *     d1 = (log(F/K) + s^2/2) / s, d2 = d1 - s.
 *   Discrete geometric average (Kemna & Vorst 1990): log G is normal, so the
 *     same formula applies with its own F and s. */
#ifndef MCP_TESTS_CLOSED_FORM_H
#define MCP_TESTS_CLOSED_FORM_H

#include <math.h>
#include <stddef.h>
#include "mcprice.h"

/* Standard normal CDF; erfc keeps full relative accuracy in the lower tail. */
static inline double cf_norm_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

/* Black's formula: option on X with E[X] = forward, stddev(log X) = s,
 * discounted by df.  s = 0 leaves the discounted intrinsic value. */
static inline double cf_black(mcp_option_type type, double forward, double strike, double s,
                              double df)
{
  double sign = type == MCP_CALL ? 1.0 : -1.0;
  if (s <= 0 || strike <= 0)
    return df * fmax(sign * (forward - strike), 0.0);
  double d1 = (log(forward / strike) + 0.5 * s * s) / s, d2 = d1 - s;
  return sign * df * (forward * cf_norm_cdf(sign * d1) - strike * cf_norm_cdf(sign * d2));
}

/* European option with continuous dividend yield q. */
static inline double cf_black_scholes(mcp_option_type type, double spot, double strike,
                                      double maturity, double rate, double dividend,
                                      double vol)
{
  return cf_black(type, spot * exp((rate - dividend) * maturity), strike,
                  vol * sqrt(maturity), exp(-rate * maturity));
}

/* The log of the geometric average G of fixings t[0..n):
 *   log G ~ N(mu, s^2), mu = log S0 + (r - q - vol^2/2) mean(t_i),
 *   s^2 = vol^2 / n^2 sum_{i,j} min(t_i, t_j). */
static inline void cf_geometric_moments(double spot, double rate, double dividend, double vol,
                                        size_t n, const double *t, double *mu, double *s)
{
  double tsum = 0, cov = 0;
  for (size_t i = 0; i < n; i++) {
    tsum += t[i];
    for (size_t j = 0; j < n; j++)
      cov += fmin(t[i], t[j]);
  }
  double nn = (double)n;
  *mu = log(spot) + (rate - dividend - 0.5 * vol * vol) * tsum / nn;
  *s = vol * sqrt(cov) / nn;
}

/* Discrete geometric-average Asian option paid at maturity: Black's formula
 * with F = E[G] = exp(mu + s^2/2). */
static inline double cf_geometric_asian(mcp_option_type type, double spot, double strike,
                                        double rate, double dividend, double vol, size_t n,
                                        const double *t, double maturity)
{
  double mu, s;
  cf_geometric_moments(spot, rate, dividend, vol, n, t, &mu, &s);
  return cf_black(type, exp(mu + 0.5 * s * s), strike, s, exp(-rate * maturity));
}

/* Digital on the geometric average, paid at maturity: cash when G ends in
 * the money, df cash N(+-d2), or G itself (asset), df F N(+-d1), with
 * d2 = (mu - log K) / s and d1 = d2 + s. */
static inline double cf_geometric_digital(mcp_option_type type, int asset, double cash,
                                          double spot, double strike, double rate,
                                          double dividend, double vol, size_t n,
                                          const double *t, double maturity)
{
  double mu, s, sign = type == MCP_CALL ? 1.0 : -1.0;
  cf_geometric_moments(spot, rate, dividend, vol, n, t, &mu, &s);
  double d2 = (mu - log(strike)) / s, df = exp(-rate * maturity);
  return asset ? df * exp(mu + 0.5 * s * s) * cf_norm_cdf(sign * (d2 + s))
               : df * cash * cf_norm_cdf(sign * d2);
}

/* Put-call parity: C - P = S0 e^{-qT} - K e^{-rT}. */
static inline double cf_parity_forward(double spot, double strike, double maturity,
                                       double rate, double dividend)
{
  return spot * exp(-dividend * maturity) - strike * exp(-rate * maturity);
}

#endif

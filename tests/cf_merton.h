/* cf_merton.h: European options under Merton's (1976) jump-diffusion.
 *   dS/S = (r - q - lambda k) dt + vol dW + (J - 1) dN, N Poisson with
 *   intensity lambda, log J ~ N(jump_mean, jump_vol^2), k = E[J] - 1 =
 *   exp(jump_mean + jump_vol^2 / 2) - 1 (the compensator keeps the
 *   discounted price a martingale).
 *   Given n jumps, log S_T is normal with total variance vol^2 T + n jump_vol^2
 *   and mean E[S_T | n] = S e^{(r - q - lambda k) T} (1 + k)^n, so the price is
 *   the Poisson(lambda T)-weighted sum of Black formulas; the weights are
 *   formed in logs, and the sum stops once the geometric bound on the
 *   remaining terms is below 1e-16 of the notional. */
#ifndef MCP_TESTS_CF_MERTON_H
#define MCP_TESTS_CF_MERTON_H

#include <math.h>
#include "tests/closed_form.h"

static inline double cf_merton(mcp_option_type type, double spot, double strike,
                               double maturity, double rate, double dividend, double vol,
                               double lambda, double jump_mean, double jump_vol)
{
  double lt = lambda * maturity;
  if (lt <= 0)
    return cf_black_scholes(type, spot, strike, maturity, rate, dividend, vol);
  double gamma = jump_mean + 0.5 * jump_vol * jump_vol; /* log(1 + k) */
  double k = expm1(gamma);
  double df = exp(-rate * maturity);
  double log_f0 = log(spot) + (rate - dividend - lambda * k) * maturity;
  double lt_tilted = lt * (1 + k); /* F_n p_n is a Poisson(lt (1+k)) weight */
  double scale = spot * exp((rate - dividend) * maturity) + strike;
  double price = 0;
  for (int n = 0; n < 100000; n++) {
    double logp = -lt + n * log(lt) - lgamma(n + 1.0);
    double f = exp(log_f0 + n * gamma);
    double s = sqrt(vol * vol * maturity + n * jump_vol * jump_vol);
    price += exp(logp) * cf_black(type, f, strike, s, df);
    double ratio = fmax(lt, lt_tilted) / (n + 1.0);
    if (ratio < 0.5) {
      /* Each later term is at most df (F_m p_m + K p_m); both weights
       * shrink by at most `ratio` per step from here on. */
      double bound = df * (exp(logp + n * gamma + lt * k) * scale + exp(logp) * strike) /
                     (1 - ratio);
      if (bound < 1e-16 * scale)
        break;
    }
  }
  return price;
}

#endif

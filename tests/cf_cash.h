/* cf_cash.h: a European option on Black-Scholes with one cash dividend d
 * at t1 (the spot drops by d, floored at 0):
 *   e^{-r t1} E[BS(max(S(t1-) - d, 0), T - t1)],
 * by quadrature over S(t1-)'s normal (cf_quad.h). */
#ifndef MCP_TESTS_CF_CASH_H
#define MCP_TESTS_CF_CASH_H

#include <math.h>
#include "tests/cf_quad.h"
#include "tests/closed_form.h"

typedef struct cf_cash {
  mcp_option_type type;
  double spot, strike, rate, yield, vol, t1, amount, maturity;
} cf_cash;

static inline double cf_cash_integrand(double z, void *arg)
{
  const cf_cash *c = arg;
  double s = c->spot * exp((c->rate - c->yield - 0.5 * c->vol * c->vol) * c->t1 +
                           c->vol * sqrt(c->t1) * z) -
             c->amount;
  double tau = c->maturity - c->t1, dq = exp(-c->yield * tau), dr = exp(-c->rate * tau);
  double v = s > 0 ? cf_black(c->type, s * dq / dr, c->strike, c->vol * sqrt(tau), dr)
                   : (c->type == MCP_PUT ? c->strike * dr : 0);
  return v * exp(-0.5 * z * z) / sqrt(2 * CF_PI);
}

static inline double cf_cash_price(const cf_cash *c)
{
  return exp(-c->rate * c->t1) *
         cf_integrate(cf_cash_integrand, (void *)c, -12, 12, 1e-10, 1e-12);
}

#endif

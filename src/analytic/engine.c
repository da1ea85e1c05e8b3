/* engine.c: the analytic engine's closed forms (engine.h).  Each model
 * gives the undiscounted call on the forward F and its first two
 * derivatives in F; the put follows by parity, and the spot's delta and
 * gamma from dF/dS = F / S. */
#include <math.h>
#include "src/analytic/analytic.h"
#include "src/analytic/engine.h"
#include "src/analytic/implied.h"
#include "src/inputs/product.h"

double mcpi_analytic_forward(const mcpi_underlying *u, double T, double *df)
{
  double r = mcpi_curve_integral(&u->rate, 0, T);
  if (df)
    *df = exp(-r);
  return u->spot * exp(r - mcpi_curve_integral(&u->dividend, 0, T));
}

mcpi_heston_params mcpi_heston_of(const mcpi_underlying *u)
{
  return (mcpi_heston_params){u->v0, u->kappa, u->theta, u->xi, u->rho};
}

/* Whether u pays a cash dividend in (0, T] seen from the valuation date
 * moved by origin: the closed forms take none. */
static int cash_by(const mcpi_underlying *u, double origin, double T)
{
  for (size_t i = 0; i < u->ncash; i++)
    if (u->cash_t[i] - origin > 0 && u->cash_t[i] - origin <= T)
      return 1;
  return 0;
}

const char *mcpi_analytic_misfit(const mcpi_trade *t, const mcpi_underlying *u, double origin)
{
  if (t->product != MCP_PRODUCT_EUROPEAN || t->nassets != 1)
    return "the closed forms price european options on one underlying";
  if (u->model == MCPI_MODEL_LOCAL_VOL && !u->iv.n)
    return "a local-volatility underlying without an implied surface has no closed form";
  return cash_by(u, origin, t->maturity) ? "a cash dividend up to maturity has no closed form"
                                         : NULL;
}

int mcpi_analytic_linear(const mcpi_trade *t, const mcpi_underlying *u, double origin)
{
  if (t->linear) /* its closed form, or mcpi_analytic_price's error */
    return 1;
  if (!(t->product == MCP_PRODUCT_ASIAN && t->average == MCP_ARITHMETIC &&
        t->strike_kind == MCP_FIXED_STRIKE && t->type == MCP_CALL && t->strike <= 0 &&
        t->nassets == 1))
    return 0;
  return !cash_by(u, origin, t->fix[t->nfix - 1]); /* the forwards without cash dividends */
}

mcp_status mcpi_analytic_price(const mcpi_trade *t, const mcpi_underlying *u, double origin,
                               double *price, double *delta, double *gamma, char *err)
{
  double T = t->maturity, K = t->strike, df, f = mcpi_analytic_forward(u, T, &df);
  if (t->known) { /* a seasoned trade's fixed payoff */
    *price = df * t->known_amount;
    *delta = *gamma = 0;
    return MCP_OK;
  }
  if (mcpi_analytic_linear(t, u, origin)) { /* A - K, A >= 0 >= K or linear: its forward */
    if (t->linear && cash_by(u, origin, t->maturity))
      return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': past_fixings: its fixings all passed, "
                       "it pays S(maturity) less a known amount, a forward, which has no "
                       "closed form with '%s''s cash dividend before its maturity; expected "
                       "no cash dividend up to it (or book the forward)", t->id, u->name);
    double a = 0;
    for (size_t i = 0; i < t->nfix; i++)
      a += mcpi_analytic_forward(u, t->fix[i], NULL);
    a /= (double)t->nfix;
    *price = t->pay_scale * df * (a - K);
    *delta = t->pay_scale * df * a / u->spot;
    *gamma = 0;
    return MCP_OK;
  }
  const char *why = mcpi_analytic_misfit(t, u, origin);
  if (why)
    return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': method: analytic: %s ('%s'); expected "
                     "mc", t->id, why, u->name);
  mcpi_fwd_call c = {f, 1, 0}; /* strike 0: the forward */
  if (K > 0 && u->model == MCPI_MODEL_HESTON) {
    mcpi_heston_params h = mcpi_heston_of(u);
    char why_not[MCPI_ERRLEN];
    if (mcpi_heston_calls(&h, T, f, 1, &K, &c, NULL, why_not) != MCP_OK)
      return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': method: analytic: %s", t->id, why_not);
  } else if (K > 0 && u->iv.n) { /* Black at the strike's implied volatility */
    c = mcpi_black_call(f, K, mcpi_implied_vol(&u->iv, K, T) * sqrt(T));
  } else if (K > 0) {
    double var = mcpi_curve_integral_sq(&u->vol, 0, T);
    c = u->model == MCPI_MODEL_MERTON
            ? mcpi_merton_call(u->lambda * T, u->jump_mean, u->jump_vol, f, K, var)
            : mcpi_black_call(f, K, sqrt(var));
  }
  if (!isfinite(c.call) || !isfinite(c.dfwd) || !isfinite(c.dfwd2))
    return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': method: analytic: the closed form of "
                     "'%s' is not finite here (Merton's sum would take more than 4e6 terms, or "
                     "a shift leaves an implied volatility <= 0); expected mc", t->id, u->name);
  if (t->type == MCP_PUT) { /* parity: P = C - (F - K) */
    c.call -= f - K;
    c.dfwd -= 1;
  }
  double r = f / u->spot;
  *price = df * c.call;
  *delta = df * c.dfwd * r;
  *gamma = df * c.dfwd2 * r * r;
  return MCP_OK;
}

mcp_status mcpi_analytic_heston_grad(const mcpi_trade *t, const mcpi_underlying *u,
                                     double grad[5], char *err)
{
  double T = t->maturity, K = t->strike, g[MCPI_HESTON_PARAMS], df;
  double f = mcpi_analytic_forward(u, T, &df);
  mcpi_heston_params h = mcpi_heston_of(u);
  mcpi_fwd_call c;
  char why[MCPI_ERRLEN];
  for (int k = 0; k < MCPI_HESTON_PARAMS; k++)
    grad[k] = 0;
  if (!(K > 0) || t->known || t->linear) /* a forward or a fixed amount: no parameter moves it */
    return MCP_OK;
  if (mcpi_heston_calls(&h, T, f, 1, &K, &c, g, why) != MCP_OK)
    return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': method: analytic: %s", t->id, why);
  for (int k = 0; k < MCPI_HESTON_PARAMS; k++) /* a put's, by parity, the call's */
    grad[k] = df * g[k];
  return MCP_OK;
}

mcp_status mcpi_analytic_quote_vegas(const mcpi_trade *t, const mcpi_underlying *u, double *vega,
                                     char *err)
{
  double T = t->maturity, K = t->strike, df, f = mcpi_analytic_forward(u, T, &df);
  for (size_t q = 0; q < u->iv.nq; q++)
    vega[q] = 0;
  if (!u->iv.qvegas)
    return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': '%s': a smile's fit is singular in its "
                     "quotes: no quote vegas", t->id, u->name);
  if (!(K > 0) || t->known || t->linear) /* a forward or a fixed amount: no quote moves it */
    return MCP_OK;
  double v = mcpi_implied_vol(&u->iv, K, T), sd = v * sqrt(T);
  if (!(v > 0))
    return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': method: analytic: a shift leaves the "
                     "implied volatility <= 0", t->id);
  /* Black's vega (a put's, by parity, the call's) times d sigma / d quote */
  double d1 = (log(f / K) + sd * sd / 2) / sd;
  double bv = df * f * sqrt(T) * exp(-d1 * d1 / 2) / sqrt(2 * 3.14159265358979323846);
  size_t q0 = 0, n = mcpi_implied_vol_grad(&u->iv, K, T, &q0, vega);
  for (size_t q = n; q-- > 0;) /* to their places, from the last */
    vega[q0 + q] = bv * vega[q];
  for (size_t q = 0; q < q0; q++)
    vega[q] = 0;
  return MCP_OK;
}

/* engine.h: the analytic engine: a European option's price, delta and gamma
 * in closed form under Black-Scholes with term structures (Black's formula
 * on the integrated rates and variance), Merton (the Poisson-weighted sum of
 * Black formulas) and Heston (the Fourier integrals of heston.h). */
#ifndef MCP_ANALYTIC_ENGINE_H
#define MCP_ANALYTIC_ENGINE_H

#include "src/analytic/heston.h"
#include "src/inputs/market.h"
#include "src/inputs/portfolio.h"

/* u's forward to T, without cash dividends, and its discount factor to T
 * into *df (when not NULL). */
double mcpi_analytic_forward(const mcpi_underlying *u, double T, double *df);
/* The parameters of Heston underlying u. */
mcpi_heston_params mcpi_heston_of(const mcpi_underlying *u);

/* Why trade t on underlying u (the valuation date moved by origin) has no
 * closed form here, or NULL. */
const char *mcpi_analytic_misfit(const mcpi_trade *t, const mcpi_underlying *u, double origin);

/* Whether trade t is an arithmetic Asian call of a strike <= 0 (a seasoned
 * one's, src/inputs/portfolio.h; no cash dividend up to its last fixing,
 * the valuation date moved by origin) or linear (a seasoned floating
 * lookback's): its price the discounted mean of its fixings' forwards less
 * the strike, times pay_scale. */
int mcpi_analytic_linear(const mcpi_trade *t, const mcpi_underlying *u, double origin);
/* Trade t's price per unit, and its delta and gamma in the spot, on
 * underlying u; MCP_ERR_INPUT naming the trade where it has no closed form
 * (mcpi_analytic_misfit) or the integral fails. */
mcp_status mcpi_analytic_price(const mcpi_trade *t, const mcpi_underlying *u, double origin,
                               double *price, double *delta, double *gamma, char *err);

/* The derivatives of trade t's price per unit in its Heston underlying u's
 * v0, kappa, theta, xi and rho (the gradient of Lewis's integral) into
 * grad[0..5); MCP_ERR_INPUT naming the trade where the integral fails. */
mcp_status mcpi_analytic_heston_grad(const mcpi_trade *t, const mcpi_underlying *u,
                                     double grad[5], char *err);
/* The derivatives of trade t's price per unit in the volatilities of its
 * underlying u's implied quotes (u->iv.nq, zero where the smiles at its
 * maturity do not read them) into vega; MCP_ERR_INPUT naming the trade
 * where a shift leaves its volatility <= 0 or a smile's fit has no
 * derivatives (u->iv.qvegas). */
mcp_status mcpi_analytic_quote_vegas(const mcpi_trade *t, const mcpi_underlying *u, double *vega,
                                     char *err);

#endif

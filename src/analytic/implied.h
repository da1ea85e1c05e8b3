/* implied.h: an underlying's implied-volatility surface (mcpi_implied,
 * market.h): an SVI smile fitted to each maturity's quotes, total variance
 * linear in time between maturities at fixed forward moneyness, checked
 * for arbitrage, and Dupire's local volatility of it, which paths follow. */
#ifndef MCP_ANALYTIC_IMPLIED_H
#define MCP_ANALYTIC_IMPLIED_H

#include "src/inputs/market.h"

#define MCPI_IMPLIED_MAX_MATURITIES 100
/* The least quotes of a maturity for its SVI smile (one: a flat smile). */
#define MCPI_SVI_MIN_QUOTES 5
/* How far (volatility points) the smile may pass from a quote before the
 * quotes are refused as no smile SVI holds. */
#define MCPI_SVI_MAX_MISS 0.02

/* Total implied variance w at forward moneyness k = log(K / F(t)), t > 0,
 * and its derivatives in k (first, second) and in t at fixed k; unshifted.
 * Before the first maturity w is its smile's scaled by t (flat implied
 * volatilities in k); after the last, its smile plus its at-the-money
 * variance rate w(0) / T times the time beyond (the smile's shape kept:
 * scaling a skewed smile would, in time, give it a negative density). */
typedef struct mcpi_total_var {
  double w, wk, wkk, wt;
} mcpi_total_var;
mcpi_total_var mcpi_implied_total_var(const mcpi_implied *s, double k, double t);
/* log F(t) of the surface's forwards. */
double mcpi_implied_log_forward(const mcpi_implied *s, double t);
/* The Black volatility of strike K at maturity t > 0, shifted; NAN where
 * the shift leaves it <= 0. */
double mcpi_implied_vol(const mcpi_implied *s, double strike, double t);

/* The smiles of quotes q (strikes absolute) on spot and the rate and
 * dividend curves into *out (shift none), and Dupire's local volatility of
 * them into *lv.  MCP_ERR_INPUT naming the maturity and strikes of the
 * quotes that admit arbitrage (calls not convex or not falling in strike,
 * total variance falling in time), that SVI cannot hold, or where the
 * surface has no local volatility; out and lv are left empty then. */
mcp_status mcpi_implied_build(const mcp_quotes *q, double spot, const mcpi_curve *rate,
                              const mcpi_curve *dividend, mcpi_implied *out, mcpi_surface *lv,
                              char *err);

/* The derivatives of the local volatility at row r's nodes of grid lv
 * (the one mcpi_implied_build gave s) in the coordinates p (svi.h) of the
 * smiles the row reads, *first's and the next's (zero where it reads one):
 * node c's at out[10 c ..] (out holds 10 lv->ns); a node that takes
 * another's value takes its derivatives.  0 where the row has no local
 * volatility. */
int mcpi_implied_row_grad(const mcpi_implied *s, const mcpi_surface *lv, size_t r,
                          size_t *first, double *out);
/* Gradient g in the coordinates of smiles first and first + 1 (as above)
 * chained to the volatilities of their quotes, *q0 .. *q0 + n - 1, times
 * scale, into out; n. */
size_t mcpi_implied_chain(const mcpi_implied *s, const double *g, size_t first, double scale,
                          size_t *q0, double *out);
/* The derivatives of the implied volatility of strike K at maturity t > 0
 * (mcpi_implied_vol) in the volatilities of the quotes of the smiles it
 * reads, *q0 .. *q0 + n - 1, into out; n. */
size_t mcpi_implied_vol_grad(const mcpi_implied *s, double strike, double t, size_t *q0,
                             double *out);

#endif

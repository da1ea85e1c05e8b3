/* analytic.h: the closed forms the engine itself needs: control-variate means,
 * the continuity correction of barriers, the analytic engine's and the
 * calibration's European options. */
#ifndef MCP_ANALYTIC_H
#define MCP_ANALYTIC_H

#include "src/inputs/curve.h"
#include "mcprice.h"

/* Black's formula: E[(X - K)+] (call) or E[(K - X)+] for a lognormal X with
 * mean forward and log-deviation s, times df. */
double mcpi_black(mcp_option_type type, double forward, double strike, double s, double df);

/* Discrete geometric Asian under Black-Scholes with term structures: fixings
 * t[0..n) (increasing), paid with discount factor df. */
double mcpi_geometric_asian(mcp_option_type type, double spot, double strike,
                            const mcpi_curve *rate, const mcpi_curve *dividend,
                            const mcpi_curve *vol, size_t n, const double *t, double df);

/* The undiscounted call on forward f and its first two derivatives in f. */
typedef struct mcpi_fwd_call {
  double call, dfwd, dfwd2;
} mcpi_fwd_call;

/* Black's undiscounted call of forward f and log-deviation s. */
mcpi_fwd_call mcpi_black_call(double f, double strike, double s);
/* Merton's (1976), of lambda_t = lambda T jumps expected to maturity, the
 * diffusion's variance var; NAN where its sum is too long (analytic.c). */
mcpi_fwd_call mcpi_merton_call(double lambda_t, double jump_mean, double jump_vol, double f,
                               double strike, double var);
/* The log-deviation s at which Black's undiscounted call (put) of forward f
 * is worth value: Newton's method kept inside a shrinking bracket; NAN
 * where value is outside the no-arbitrage bounds. */
double mcpi_black_implied(mcp_option_type type, double f, double strike, double value);

/* Broadie, Glasserman and Kou (1997): beta = -zeta(1/2) / sqrt(2 pi). */
#define MCPI_BGK_BETA 0.5825971579390106

#endif

/* analytic.h: the closed forms the engine itself needs: control-variate means
 * and the continuity correction of barriers. */
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

/* Broadie, Glasserman and Kou (1997): beta = -zeta(1/2) / sqrt(2 pi). */
#define MCPI_BGK_BETA 0.5825971579390106

#endif

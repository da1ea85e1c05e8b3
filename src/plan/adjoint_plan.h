/* adjoint_plan.h: bucketed sensitivities by adjoint, the host's part
 * (adjoint_plan.c; the path's: models/products/adjoint.h). */
#ifndef MCP_ADJOINT_PLAN_H
#define MCP_ADJOINT_PLAN_H

#include "src/base/error.h"
#include "src/inputs/greeks.h"
#include "src/inputs/portfolio.h"
#include "src/plan/plan.h"

/* The most buckets (volatility pieces or nodes, and rate pieces) of an
 * underlying whose trades take them: each is a column of each trade's and
 * of the book's, on every path of a tile. */
#define MCPI_ADJ_MAX_BUCKETS 4096

/* Whether a request asks of a trade of nassets assets what only an adjoint
 * gives: buckets of a Greek they give (delta, vega, rho), or correlations
 * (several assets). */
int mcpi_adjoint_asked(const mcp_greeks *req, size_t nassets);
/* Whether a job's paths can be swept back: one Black-Scholes,
 * local-volatility or Heston underlying, or several correlated Black-Scholes
 * or local-volatility ones,
 * of at most MCPI_ADJ_MAX_BUCKETS buckets where req asks them (else a
 * column a kind and asset), whose volatility stays above 0
 * (at 0 a volatility's shift is no derivative: a step's deviation is the
 * root of its variance), double precision, no sampled
 * extremes, no exercise, no per-path arrays, at most MCPI_ADJ_MAX_ELEMENTS
 * steps (an asset). */
int mcpi_adjoint_job_fits(const mcpi_job *j, const mcp_greeks *req, mcp_precision precision);
/* Whether a trade's payoff in job j is one the sweep differentiates: a
 * European, an Asian, a lookback watched on its dates, a barrier watched on
 * the bridge (no cash dividend paid by its maturity; not under Heston); of
 * several assets, a basket, best-of or worst-of option. */
int mcpi_adjoint_trade_fits(const mcpi_job *j, const mcpi_trade *t);
/* The job's Jacobians, block and its columns' descriptors (adj_*) for the
 * request, once; its trades' payment times (spec g_time) set.  Without
 * buckets, a kind's pieces of an asset share a hidden column (the totals
 * are what is shown); without dividend sensitivities, the yields have no
 * entries. */
mcp_status mcpi_adjoint_jacobians(mcpi_job *j, const mcp_greeks *req, char *err);
/* A block of the job's deltas alone, a column an asset (a pass that sweeps
 * back: variants.c), in place of the Jacobians: no other entry or array;
 * of several local-volatility assets only, whose sweep then carries the
 * log-spots' adjoints alone (adjoint.h, mcpi_adj_deltas_only). */
mcp_status mcpi_adjoint_deltas(mcpi_job *j, char *err);
/* The derivatives of a multi-asset job's Cholesky factor L of its F
 * factors' correlations D (its lower triangle, row by row, F (F + 1) / 2
 * values, to dl): dL = L Phi(L^-1 dD L^-T), Phi the lower triangle with
 * its diagonal halved.  In the correlation of its assets p != q (of their
 * spots: both entries of the symmetric matrix; several Heston assets' D =
 * T C T', correlation.c, moves by T dC T'); where p == q, in several Heston
 * assets' asset p's rho, which moves both T and C (m: the job's market). */
void mcpi_adjoint_correlation(const mcpi_job *j, const mcp_market *m, size_t p, size_t q,
                              double *dl);
/* The digits a label's numbers take (the fewest that tell an array's
 * values apart), kept for the buckets of one underlying's kind of Greek
 * that follow one another: a call's hundreds of labels find them once;
 * and a surface's coordinates as its node labels write them, each
 * formatted once (the benchmark's 400 node labels were a quarter of its
 * adjoint call's host work, two %g a label).  Zeroed before the first
 * call; mcpi_label_digits_free after the last, within one market (the
 * memo knows an underlying by its address). */
#define MCPI_LABEL_NUM 32 /* a %.17g, its sign and exponent, and a NUL */
typedef struct mcpi_label_digits {
  const mcpi_underlying *u; /* NULL: none kept */
  mcp_greek greek;
  int d[2];
  char (*spot)[MCPI_LABEL_NUM]; /* the surface's spots, or NULL */
  size_t row;                   /* 1 + the row whose time is in time, or 0 */
  char time[MCPI_LABEL_NUM];
} mcpi_label_digits;
void mcpi_label_digits_free(mcpi_label_digits *memo);

/* The label of a bucket (mcpi_est.bucket) of an underlying's vega, rho or
 * dividend: "(lo,hi]" for a curve's piece, "t=T,S=K" for a surface's node,
 * "T=T,K=K" for an implied volatility's quote, "t=T" for a cash dividend's
 * amount (bucket 1 + the dividend curve's pieces + its index), the
 * parameter's name for a Heston underlying's vega (variants.h);
 * snprintf's result.  memo: the digits of the last call's underlying and
 * Greek, updated (zeroed before the first call; NULL: found each time). */
int mcpi_adjoint_label(const mcpi_underlying *u, mcp_greek greek, long bucket,
                       mcpi_label_digits *memo, char *out, size_t n);

#endif

/* pde.h: the finite-difference engine's plan (the solvers: src/exec/backend.h).
 * Every trade priced on a grid becomes one or two grids (a knock-in is the
 * vanilla plus a knock-out of rebate minus vanilla) or, for a barrier
 * already crossed at the start, a known amount; all grids of a run share
 * the node count, the stencil and the scheme, and are solved as one batch.
 * A European call's grid (a vanilla one, with no barrier) is the put's, and
 * the forward S Dq - K Dr is added: the call's value lies in the far upper
 * tail of the spot at a high volatility, where no grid of a few hundred
 * nodes is accurate (vol 5: 94.38 for 98.78), while the put's lies where
 * the spot's density does.
 * The trades of the analytic engine (src/analytic/engine.h) join the batch
 * as known amounts, their closed forms' price, delta and gamma, so that
 * the Greeks' and scenarios' revaluations treat both engines alike. */
#ifndef MCP_PDE_H
#define MCP_PDE_H

#include "src/inputs/market.h"
#include "models/products/pde_grid.h"
#include "src/inputs/portfolio.h"

/* The largest relative error a call's grid may be expected to have in its
 * far upper tail (pde_plan.c, add_grid). */
#define MCPI_PDE_CALL_TOLERANCE 1e-4

/* Steps the explicit scheme may take for one grid. */
#define MCPI_PDE_MAX_EXPLICIT_STEPS 2000000

typedef struct mcpi_pde_trade {
  size_t trade;        /* index in the portfolio */
  mcp_engine engine;   /* MCP_ENGINE_PDE or MCP_ENGINE_ANALYTIC (no grids) */
  double constant;     /* added to the grids' prices */
  double delta, gamma; /* the constant's: Dq when it holds the parity's S Dq */
  int grid, ngrids;
} mcpi_pde_trade;

/* A grid's nodes are spaced 2 W / (n - 1) apart, W = width sigma sqrt(T) plus
 * the drift of log-spot to maturity, the spot
 * on the center node; a knock-out barrier within that width is node 0 (down)
 * or n - 1 (up) and the spot then lies between nodes, its price
 * interpolated; a barrier beyond it is left off the grid (its crossing
 * probability is below 2 Phi(-width)). */
typedef struct mcpi_pde_batch {
  mcp_pde_settings set;
  int n, ld, radius;
  size_t ngrids, nseg, ndiv;
  mcpi_pde_grid *grid;
  mcpi_pde_segment *seg;
  mcpi_pde_dividend *div; /* the grids' cash dividends (mcpi_pde_grid.div0) */
  double *frac; /* host only: the spot's offset from the center node, in steps */
  size_t ntrades;
  mcpi_pde_trade *trade;
  size_t nbound; /* the exercise boundaries' slots (mcpi_pde_bound_slot) */
} mcpi_pde_batch;

/* The engine that prices trade t without paths: MCP_ENGINE_PDE (on a grid
 * of the numerics grid, NULL: the portfolio's own, run_options.h) or
 * MCP_ENGINE_ANALYTIC; else MCP_ENGINE_MC (0). */
mcp_engine mcpi_trade_off_paths(const mcp_market *m, const mcp_portfolio *p,
                                const mcp_pde_settings *grid, const mcpi_trade *t);
/* The batch of the portfolio's trades priced without paths (none: ngrids =
 * ntrades = 0). */
mcp_status mcpi_pde_plan(const mcp_market *m, const mcp_portfolio *p, const mcp_pde_settings *grid,
                         mcpi_pde_batch *b, char *err);
void mcpi_pde_free(mcpi_pde_batch *b);
/* Appends src's grids and trades to dst (the same settings), so that one
 * solve serves both. */
mcp_status mcpi_pde_append(mcpi_pde_batch *dst, const mcpi_pde_batch *src, char *err);
/* The calendar time (years) at which the values of grid G, of trade
 * maturity T, stand after step s (marching back from T). */
double mcpi_pde_step_time(const mcpi_pde_grid *G, double T, int s);
/* The prices of the batch's trades t0 <= i < t1 from the solved grids into
 * est (indexed by portfolio trade) and, when dg is not NULL, their delta and
 * gamma off the grid into dg[2 t], dg[2 t + 1]. */
mcp_status mcpi_pde_values(const mcp_portfolio *p, const mcpi_pde_batch *b, const double *out,
                           size_t t0, size_t t1, mcp_estimate *est, double *dg, char *err);
#endif

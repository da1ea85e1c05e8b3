/* variants.h: the variants a run revalues (the Greeks' bumped markets, a
 * grid's scenario points) and the estimators on its jobs (variants.c). */
#ifndef MCP_VARIANTS_H
#define MCP_VARIANTS_H

#include "src/analytic/heston.h"
#include "src/base/error.h"
#include "src/inputs/greeks.h"
#include "src/plan/pde.h"
#include "src/plan/plan.h"

/* The revaluations that bump estimators difference with the base run: on
 * the base run's normals for Monte Carlo trades, on re-solved grids for PDE
 * trades. */
typedef enum mcpi_var_kind {
  MCPI_VAR_SPOT_UP = 0, MCPI_VAR_SPOT_DOWN, MCPI_VAR_VOL_UP, MCPI_VAR_VOL_DOWN,
  MCPI_VAR_RATE_UP, MCPI_VAR_RATE_DOWN, MCPI_VAR_THETA,
  MCPI_VAR_KINDS, /* the Greeks' kinds above */
  MCPI_VAR_POINT, /* a scenario point's market, given */
  MCPI_VAR_GRID,  /* the grid check's coarse jobs (grid_check.h) */
  /* a Heston parameter of one underlying up, down (its model vegas) */
  MCPI_VAR_HESTON_UP, MCPI_VAR_HESTON_DOWN,
  /* two spots moved at once, a corner of a cross gamma's square: asset the
   * first, param 4 b + 2 (first up) + (second up), b the second's index */
  MCPI_VAR_SPOT_PAIR
} mcpi_var_kind;

/* Heston's model vegas (with buckets): each parameter of a Heston asset
 * revalued up and down by MCPI_HESTON_BUMP of itself (rho by that much,
 * at most half its distance to -1 or 1; none at either, nor for an
 * underlying of a multi-asset trade), in the order of mcpi_heston_bump's k:
 * v0, kappa, theta, xi, rho. */
#define MCPI_HESTON_BUMP 0.01
double mcpi_heston_bump(const mcpi_underlying *u, int k);

typedef struct mcpi_variant {
  mcpi_var_kind kind;
  long asset;               /* spot, volatility and Heston variants: the market index, else -1 */
  int param;                /* Heston variants: the parameter (mcpi_heston_bump's k);
                             * a pair of spots: their second and directions */
  int mc, pde;              /* Monte Carlo jobs, PDE trades need it */
  mcp_market *market;       /* shifted copy, or NULL: the base market */
  mcp_portfolio *portfolio; /* theta: the dates moved, or NULL: the base */
  mcpi_plan plan;
  mcpi_pde_batch grid;
  mcp_estimate *pde_est;    /* PDE prices of the variant, by portfolio trade */
} mcpi_variant;

/* A PDE trade's Greek: finite differences of variants' grid prices. */
typedef struct mcpi_pde_greek {
  size_t trade;             /* portfolio index */
  mcp_greek greek;
  long var[2];              /* the variants up and down, or -1 for the unshifted price */
  double scale;             /* the difference's divisor */
} mcpi_pde_greek;

/* A variant whose pass of a job sweeps its paths back: its trades' adjoint
 * blocks at the variant's market (a bumped adjoint's, variants.c). */
typedef struct mcpi_sweep {
  const mcpi_job *job; /* the base plan's */
  size_t var;
} mcpi_sweep;

typedef struct mcpi_greek_run {
  const mcpi_settings *set; /* the run's (its variants' plans and grids follow them) */
  const mcp_greeks *req;
  unsigned char *used;      /* market underlyings some trade uses (the shifts' scope) */
  unsigned char *joint;     /* ... that some multi-asset trade uses (no Heston rho moved: it
                             * would move their correlation matrix, which the GPU's passes
                             * share with the job's, and might leave it not positive
                             * definite) */
  double theta_h;           /* theta's bump: the request's, at most half a uniform step */
  /* vega's and rho's differences: 0 central; +1 forward, -1 backward, where
   * the shift down (up) would leave the market's allowed range */
  int side[2];
  mcpi_variant *var;
  size_t nvar;
  mcpi_pde_greek *pg;
  size_t npg;
  mcpi_sweep *sweep;
  size_t nsweep, scap;
} mcpi_greek_run;

/* Decides every Monte Carlo trade's estimators and the variants they need,
 * sets the base plan's jobs' estimator columns and passes, and builds the
 * variants' markets, plans and PDE batches. */
mcp_status mcpi_greeks_layout(const mcp_market *m, const mcp_portfolio *p,
                              const mcpi_settings *set, const mcp_greeks *req, mcpi_plan *plan,
                              const mcpi_pde_batch *grid, mcpi_greek_run *g, char *err);
/* Lays out the revaluation of the portfolio in each of the n markets (which
 * the run takes over) on the normals of the base market's paths: every job
 * has a pass a market, and an estimator a market (its point) and trade, and
 * a market and book (trade -1), that is the pass's payoff itself; with
 * losses, then an estimator a market, the base's book less the market's,
 * path by path, and in a job of a Longstaff-Schwartz trade three more a
 * market, in this order: its held European's column (times its quantity)
 * in the base less the market's book, the base's book less it in the
 * market, and it in both (reval.c's collect_loss reads them by index). */
mcp_status mcpi_points_layout(mcp_market **markets, size_t n, int losses, const mcp_market *m,
                              const mcp_portfolio *p, const mcpi_settings *set, mcpi_plan *plan,
                              const mcpi_pde_batch *grid, mcpi_greek_run *g, char *err);
void mcpi_greeks_free(mcpi_greek_run *g);

#endif

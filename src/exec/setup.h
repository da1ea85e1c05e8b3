/* setup.h: what a run prices before it computes (setup.c): its plan, the
 * PDE trades, the layout of the Greeks' or the scenario points'
 * revaluations.  A run builds its own (reval.c); the workers of one
 * pricing over several devices share the one their caller built
 * (spread.c), each with its own copy of what a run writes. */
#ifndef MCP_SETUP_H
#define MCP_SETUP_H

#include "src/exec/boundary.h"
#include "src/plan/variants.h"
#include "src/slices/slice.h"

/* Built from market, portfolio and req, which a worker's next slice of the
 * same pricing finds in mcpi_slicing.keep again. */
struct mcpi_setup {
  const mcp_market *market;
  const mcp_portfolio *portfolio;
  const mcp_greeks *req;
  mcpi_settings set; /* the context's options over the portfolio's */
  mcpi_plan plan;
  mcpi_pde_batch pde;
  mcpi_greek_run greeks;
  double *dg;
  mcpi_bounds bnd; /* the exercise boundaries (run.exercise_boundary) */
  mcp_portfolio paired; /* the portfolio, its knots paired at theta's bump (setup.c) */
  int passes;
  int losses; /* the points' losses (mcpi_reval) */
  /* a worker's share (mcpi_setup_share): the setup whose arrays it reads,
   * else NULL */
  const mcpi_setup *base;
};

/* The setup of a run of the book in market, with the Greeks of req or the
 * npoints scenario markets (which it takes over, freed on failure too), into
 * *out; errors into ctx's message. */
mcp_status mcpi_setup_build(mcp_context *ctx, const mcp_market *market,
                            const mcp_portfolio *portfolio, const mcp_greeks *req,
                            mcp_market **markets, size_t npoints, int losses, mcpi_setup **out);
/* A worker's share of base (a price or Greeks run's: not a scenario
 * group's) into *out: base's plans read in place but for the arrays a run
 * writes (mcpi_plan_share).  Only the worker that runs slice 0 writes the
 * rest, which the shares hold in common: the PDE values and the exercise
 * boundaries; base outlives its shares.  MCP_ERR_NO_MEMORY with a message
 * in err. */
mcp_status mcpi_setup_share(const mcpi_setup *base, mcpi_setup **out, char *err);
/* Frees a setup or a share (NULL: nothing). */
void mcpi_setup_free(mcpi_setup *su);

#endif

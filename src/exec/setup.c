/* setup.c: a run's setup (setup.h), built, shared among the workers of
 * several devices, freed. */
#include <stdlib.h>
#include "src/exec/context.h"
#include "src/exec/setup.h"
#include "src/plan/grid_check.h"
#include "src/plan/pde.h"

/* The variants' estimates of the PDE trades, set by finish_pde or a merge. */
static mcp_status alloc_pde_est(mcp_context *ctx, const mcp_portfolio *p, mcpi_greek_run *g)
{
  for (size_t v = 0; g && v < g->nvar; v++)
    if (g->var[v].pde && !(g->var[v].pde_est = calloc(p->n, sizeof *g->var[v].pde_est)))
      return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the PDE Greeks");
  return MCP_OK;
}

mcp_status mcpi_setup_build(mcp_context *ctx, const mcp_market *market,
                            const mcp_portfolio *portfolio, const mcp_greeks *req,
                            mcp_market **markets, size_t npoints, int losses, mcpi_setup **out)
{
  mcpi_setup *su = calloc(1, sizeof *su);
  if (su)
    mcpi_context_settings(ctx, portfolio, &su->set);
  mcp_status st = su ? mcpi_plan_build(market, portfolio, &su->set.pde, &su->plan, ctx->err)
                     : mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
  /* a curve knot's pair is theta's bump (time_grid.c): planned at the
   * default's, and where theta takes another bump, planned again at it (a
   * shallow copy of the portfolio carries it to the revaluations; the
   * prices then differ from mcp_price's in their bits, not their law) */
  const mcp_portfolio *lp = portfolio;
  if (st == MCP_OK && req && req->want[MCP_GREEK_THETA] && su->plan.knot_pair > 0) {
    double h = mcpi_plan_theta_bump(&su->plan, req->bump[MCP_GREEK_THETA]);
    if (h != su->plan.knot_pair) {
      su->paired = *portfolio;
      su->paired.knot_pair = h;
      lp = &su->paired;
      mcpi_plan_free(&su->plan);
      st = mcpi_plan_build(market, lp, &su->set.pde, &su->plan, ctx->err);
    }
  }
  if (st == MCP_OK &&
      ((st = mcpi_plan_precision_check(&su->plan, su->set.precision, ctx->err)) != MCP_OK ||
       (st = mcpi_pde_plan(market, portfolio, &su->set.pde, &su->pde, ctx->err)) != MCP_OK))
    mcpi_plan_free(&su->plan);
  if (st != MCP_OK) {
    for (size_t k = 0; k < npoints; k++)
      mcp_market_destroy(markets[k]);
    free(su);
    return st;
  }
  su->market = market;
  su->portfolio = portfolio;
  su->req = req;
  su->passes = req || npoints;
  su->losses = losses && npoints;
  if (npoints)
    st = mcpi_points_layout(markets, npoints, losses, market, lp, &su->set, &su->plan, &su->pde,
                            &su->greeks, ctx->err);
  else if (req &&
           (st = mcpi_greeks_layout(market, lp, &su->set, req, &su->plan, &su->pde,
                                    &su->greeks, ctx->err)) == MCP_OK &&
           !(su->dg = calloc(2 * portfolio->n, sizeof *su->dg)))
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the Greeks");
  /* the grid check's coarse passes, after the Greeks' or the points' */
  if (st == MCP_OK && su->set.grid_check &&
      (st = mcpi_grid_layout(&su->set, &su->plan, &su->greeks, ctx->err)) == MCP_OK)
    su->passes = su->passes || su->greeks.nvar > 0;
  if (st == MCP_OK)
    st = alloc_pde_est(ctx, portfolio, su->passes ? &su->greeks : NULL);
  /* last: the variants' grids, planned above, record no boundary */
  if (st == MCP_OK && su->set.exercise_boundary)
    st = mcpi_bounds_layout(portfolio, &su->plan, &su->pde, &su->bnd, ctx->err);
  if (st != MCP_OK) {
    mcpi_setup_free(su);
    return st;
  }
  *out = su;
  return MCP_OK;
}

mcp_status mcpi_setup_share(const mcpi_setup *base, mcpi_setup **out, char *err)
{
  mcpi_setup *c = malloc(sizeof *c);
  size_t nvar = base->greeks.nvar;
  *out = NULL;
  if (c) {
    *c = *base;
    c->base = base;
    c->plan = (mcpi_plan){0};
    c->greeks.nvar = 0; /* the variants whose plans it shares, so far */
    c->greeks.var = nvar ? malloc(nvar * sizeof *c->greeks.var) : NULL;
  }
  if (!c || (nvar && !c->greeks.var)) {
    mcpi_setup_free(c);
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for a device's plan");
  }
  mcp_status st = mcpi_plan_share(&base->plan, &base->plan, -1, &c->plan, err);
  for (size_t v = 0; st == MCP_OK && v < nvar; v++) {
    c->greeks.var[v] = base->greeks.var[v];
    st = mcpi_plan_share(&base->greeks.var[v].plan, &base->plan, (long)v,
                         &c->greeks.var[v].plan, err);
    c->greeks.nvar = v + 1;
  }
  if (st != MCP_OK) {
    mcpi_setup_free(c);
    return st;
  }
  *out = c;
  return MCP_OK;
}

void mcpi_setup_free(mcpi_setup *su)
{
  if (!su)
    return;
  if (su->base) { /* a share: its own copies alone */
    mcpi_plan_unshare(&su->plan, &su->base->plan);
    for (size_t v = 0; v < su->greeks.nvar; v++)
      mcpi_plan_unshare(&su->greeks.var[v].plan, &su->base->greeks.var[v].plan);
    free(su->greeks.var);
    free(su);
    return;
  }
  free(su->dg);
  mcpi_bounds_free(&su->bnd);
  mcpi_greeks_free(&su->greeks);
  mcpi_plan_free(&su->plan);
  mcpi_pde_free(&su->pde);
  free(su);
}

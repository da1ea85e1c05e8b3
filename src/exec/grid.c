/* grid.c: the run of a scenario grid, a client of the revaluation module:
 * every point is priced with the portfolio's seed on a copy of the market
 * with the shifts applied, on the paths of its group's first point. */
#include <stdlib.h>
#include <string.h>
#include "src/exec/context.h"
#include "src/exec/reval.h"
#include "src/inputs/scenario.h"
#include "src/results/results.h"

/* Points priced on one run's normals: each adds a revaluation pass and its
 * columns to every job's tiles. */
#define MCPI_POINTS_PER_RUN 64

/* The grid's groups of points, run g the g-th (slice.h); a slice leaves
 * *results NULL. */
mcp_status mcpi_scenarios_run(mcp_context *ctx, const mcp_market *market,
                              const mcp_portfolio *portfolio, const mcp_scenarios *scenarios,
                              mcp_scenario_results **results, const mcpi_slicing *sl)
{
  mcp_scenario_results *r = calloc(1, sizeof *r);
  if (!r)
    return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for scenario results");
  size_t npoints = 1;
  for (int a = 0; a < MCPI_NAXES; a++) {
    r->n[a] = mcpi_scenarios_shifts(scenarios, a);
    r->kind[a] = scenarios->kind[a];
    npoints *= r->n[a];
  }
  r->point = calloc(npoints, sizeof *r->point);
  for (int a = 0; a < MCPI_NAXES; a++)
    r->shift[a] = calloc(r->n[a], sizeof(double));
  mcp_status st = MCP_OK;
  if (!r->point || !r->shift[0] || !r->shift[1] || !r->shift[2])
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for scenario results");
  for (int a = 0; st == MCP_OK && a < MCPI_NAXES; a++)
    for (size_t i = 0; i < r->n[a]; i++)
      r->shift[a][i] = mcpi_scenarios_shift(scenarios, a, i);
  /* groups of points on one run's normals: the first point's market is the
   * run's, the others are revaluation passes over its tiles */
  mcp_market **m = calloc(MCPI_POINTS_PER_RUN, sizeof *m);
  if (st == MCP_OK && !m)
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the scenarios");
  for (size_t p0 = 0; st == MCP_OK && p0 < npoints; p0 += MCPI_POINTS_PER_RUN) {
    size_t n = npoints - p0 < MCPI_POINTS_PER_RUN ? npoints - p0 : MCPI_POINTS_PER_RUN, made = 0;
    memset(m, 0, MCPI_POINTS_PER_RUN * sizeof *m);
    for (; st == MCP_OK && made < n; made++) {
      size_t q = p0 + made, k = q % r->n[2], j = q / r->n[2] % r->n[1], i = q / r->n[2] / r->n[1];
      double x[MCPI_NAXES] = {r->shift[0][i], r->shift[1][j], r->shift[2][k]};
      st = mcpi_market_shifted(market, scenarios->kind, x, -1, NULL, &m[made], ctx->err);
    }
    mcpi_slicing run = sl ? *sl : (mcpi_slicing){0};
    run.run = p0 / MCPI_POINTS_PER_RUN;
    run.keep = NULL; /* the group's markets die with it: no setup outlives them */
    if (st == MCP_OK)
      st = mcpi_reval_run(ctx, m[0], portfolio,
                          &(mcpi_reval){.points = m + 1, .npoints = n - 1}, r->point + p0,
                          sl ? &run : NULL);
    else /* the run takes over the others only when it starts */
      for (size_t q = 1; q < made; q++)
        mcp_market_destroy(m[q]);
    mcp_market_destroy(m[0]);
  }
  free(m);
  if (st != MCP_OK || (sl && sl->out)) {
    mcp_scenario_results_destroy(r);
    return st;
  }
  *results = r;
  return MCP_OK;
}

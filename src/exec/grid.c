/* grid.c: the run of a scenario grid or set, a client of the revaluation
 * module: every point is priced with the portfolio's seed on a copy of the
 * market with the shifts applied, on the paths of its group's first point
 * (each group of a set starts with its base, the market unshifted). */
#include <stdlib.h>
#include <string.h>
#include "src/exec/context.h"
#include "src/exec/reval.h"
#include "src/inputs/scenario.h"
#include "src/results/results.h"

/* Points priced on one run's normals: each adds a revaluation pass and its
 * columns to every job's tiles. */
#define MCPI_POINTS_PER_RUN 64

/* The market of point q of the run into *out: a grid's point (i, j, k), a
 * set's base (q = 0) or scenario q - 1. */
static mcp_status point_market(mcp_context *ctx, const mcp_market *market,
                               const mcp_scenarios *scenarios, const mcp_scenario_results *r,
                               size_t q, mcp_market **out)
{
  if (!r->nset) {
    size_t k = q % r->n[2], j = q / r->n[2] % r->n[1], i = q / r->n[2] / r->n[1];
    double x[MCPI_NAXES] = {r->shift[0][i], r->shift[1][j], r->shift[2][k]};
    return mcpi_market_shifted(market, scenarios->kind, x, -1, NULL, out, ctx->err);
  }
  double *xs = malloc((market->n ? market->n : 1) * MCPI_NAXES * sizeof *xs);
  if (!xs)
    return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the scenarios");
  mcp_status st = MCP_OK;
  if (q)
    st = mcpi_scenarios_set_point(scenarios, q, market, xs, ctx->err);
  else
    memset(xs, 0, market->n * MCPI_NAXES * sizeof *xs);
  if (st == MCP_OK &&
      (st = mcpi_market_shifted_each(market, scenarios->kind, xs, out, ctx->err)) != MCP_OK &&
      q) { /* the scenario named before the underlying and the shift */
    char said[MCPI_ERRLEN];
    memcpy(said, ctx->err, sizeof said);
    said[sizeof said - 1] = 0;
    st = mcpi_fail(ctx->err, st, "scenario '%s': %s", scenarios->set[q - 1].name, said);
  } else if (st == MCP_OK && q &&
             (st = mcpi_scenarios_key_shifts(scenarios, q, market, *out, ctx->err)) != MCP_OK) {
    mcp_market_destroy(*out);
    *out = NULL;
  }
  free(xs);
  return st;
}

/* r's points and their shifts or names, from the scenarios. */
static mcp_status describe(mcp_context *ctx, const mcp_scenarios *scenarios,
                           mcp_scenario_results *r)
{
  r->npoints = mcpi_scenarios_points(scenarios);
  r->nset = scenarios->nset;
  r->point = calloc(r->npoints, sizeof *r->point);
  int ok = r->point != NULL;
  for (int a = 0; a < MCPI_NAXES; a++) {
    r->kind[a] = scenarios->kind[a];
    r->n[a] = r->nset ? 0 : mcpi_scenarios_shifts(scenarios, a);
    if (r->n[a] && (r->shift[a] = calloc(r->n[a], sizeof(double))))
      for (size_t i = 0; i < r->n[a]; i++)
        r->shift[a][i] = mcpi_scenarios_shift(scenarios, a, i);
    ok = ok && (!r->n[a] || r->shift[a]);
  }
  if (r->nset && (r->name = calloc(r->nset, sizeof *r->name)))
    for (size_t s = 0; s < r->nset; s++)
      ok = ok && (r->name[s] = strdup(scenarios->set[s].name)) != NULL;
  ok = ok && (!r->nset || r->name);
  return ok ? MCP_OK
            : mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for scenario results");
}

/* The point of a group's i-th market, the group's first point (a set's
 * first scenario's point) first: a grid's first + i; a set's base (point
 * 0), then its scenarios (point s + 1 for scenario s). */
static size_t at(const mcp_scenario_results *r, size_t first, size_t i)
{
  return r->nset && i == 0 ? 0 : first + i;
}

/* The grid's or set's groups of points, run g the g-th (slice.h); a slice
 * leaves *results NULL. */
mcp_status mcpi_scenarios_run(mcp_context *ctx, const mcp_market *market,
                              const mcp_portfolio *portfolio, const mcp_scenarios *scenarios,
                              mcp_scenario_results **results, const mcpi_slicing *sl)
{
  mcp_scenario_results *r = calloc(1, sizeof *r);
  if (!r)
    return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for scenario results");
  mcp_status st = describe(ctx, scenarios, r);
  /* groups of points on one run's normals: the first point's market is the
   * run's, the others are revaluation passes over its tiles; a set's every
   * group starts with its base, against which its scenarios' losses pair
   * path by path (the base's results kept from the first) */
  size_t per = r->nset ? MCPI_POINTS_PER_RUN - 1 : MCPI_POINTS_PER_RUN;
  size_t todo = r->nset ? r->nset : r->npoints;
  mcp_market **m = calloc(MCPI_POINTS_PER_RUN, sizeof *m);
  mcp_results **got = calloc(MCPI_POINTS_PER_RUN, sizeof *got);
  if (st == MCP_OK && (!m || !got))
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the scenarios");
  for (size_t g = 0; st == MCP_OK && g * per < todo; g++) {
    size_t first = g * per, n = todo - first < per ? todo - first : per;
    size_t nm = r->nset ? n + 1 : n, made = 0;
    memset(m, 0, MCPI_POINTS_PER_RUN * sizeof *m);
    memset(got, 0, MCPI_POINTS_PER_RUN * sizeof *got);
    for (; st == MCP_OK && made < nm; made++)
      st = point_market(ctx, market, scenarios, r, at(r, first, made), &m[made]);
    mcpi_slicing run = sl ? *sl : (mcpi_slicing){0};
    run.run = g;
    run.keep = NULL; /* the group's markets die with it: no setup outlives them */
    if (st == MCP_OK)
      st = mcpi_reval_run(ctx, m[0], portfolio,
                          &(mcpi_reval){.points = m + 1, .npoints = nm - 1, .losses = r->nset > 0},
                          got, sl ? &run : NULL);
    else /* the run takes over the others only when it starts */
      for (size_t q = 1; q < made; q++)
        mcp_market_destroy(m[q]);
    mcp_market_destroy(m[0]);
    for (size_t i = 0; i < nm; i++)
      if (r->nset && i == 0 && g > 0)
        mcp_results_destroy(got[0]); /* the base again, to the bit */
      else
        r->point[at(r, first, i)] = got[i];
  }
  free(m);
  free(got);
  if (st != MCP_OK || (sl && sl->out)) {
    mcp_scenario_results_destroy(r);
    return st;
  }
  *results = r;
  return MCP_OK;
}

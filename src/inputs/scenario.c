/* scenario.c: grids of market shifts, their run (a client of the
 * revaluation module: every point is priced with the portfolio's seed on a
 * copy of the market with the shifts applied, on the paths of its group's
 * first point) and their results. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "context.h"
#include "market.h"
#include "reval.h"
#include "scenario.h"
#include "validate.h"

mcp_status mcp_scenarios_create(mcp_scenarios **s)
{
  if (!s)
    return MCP_ERR_ARGUMENT;
  *s = calloc(1, sizeof **s);
  if (!*s)
    return MCP_ERR_NO_MEMORY;
  (*s)->kind[MCP_SHIFT_RATE] = MCP_SHIFT_ABSOLUTE;
  return MCP_OK;
}

void mcp_scenarios_destroy(mcp_scenarios *s)
{
  if (!s)
    return;
  for (int a = 0; a < MCPI_NAXES; a++)
    free(s->shift[a]);
  free(s);
}

const char *mcp_scenarios_last_error(const mcp_scenarios *s) { return s ? s->err : ""; }

size_t mcpi_scenarios_shifts(const mcp_scenarios *s, int axis)
{
  return s->n[axis] ? s->n[axis] : 1;
}

double mcpi_scenarios_shift(const mcp_scenarios *s, int axis, size_t i)
{
  return s->n[axis] ? s->shift[axis][i] : 0;
}

mcp_status mcp_scenarios_set(mcp_scenarios *s, mcp_shift_axis axis, mcp_shift_kind kind,
                             size_t n, const double *shifts)
{
  if (!s)
    return MCP_ERR_ARGUMENT;
  if ((unsigned)axis >= MCPI_NAXES)
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT,
                     "scenario axis: expected spot, volatility or rate, got %d", (int)axis);
  const char *name = mcpi_axis_name(axis);
  if (kind != MCP_SHIFT_RELATIVE && kind != MCP_SHIFT_ABSOLUTE)
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT, "%s shifts: kind: expected relative or absolute",
                     name);
  size_t others = 1;
  for (int a = 0; a < MCPI_NAXES; a++)
    if (a != (int)axis)
      others *= mcpi_scenarios_shifts(s, a);
  if (n == 0 || !shifts || n * others > MCP_MAX_SCENARIOS)
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT,
                     "%s shifts: expected 1 to %zu shifts (at most %d scenarios in all), got %zu",
                     name, (size_t)MCP_MAX_SCENARIOS / others, MCP_MAX_SCENARIOS, n);
  for (size_t i = 0; i < n; i++)
    if (!isfinite(shifts[i]) || (kind == MCP_SHIFT_RELATIVE && shifts[i] <= -1))
      return mcpi_fail(s->err, MCP_ERR_ARGUMENT, "%s shifts[%zu]: expected %s, got %g", name, i,
                       kind == MCP_SHIFT_RELATIVE ? "a relative shift above -1"
                                                  : "a finite number",
                       shifts[i]);
  double *copy = malloc(n * sizeof *copy);
  if (!copy)
    return mcpi_fail(s->err, MCP_ERR_NO_MEMORY, "out of memory for the %s shifts", name);
  memcpy(copy, shifts, n * sizeof *copy);
  free(s->shift[axis]);
  s->shift[axis] = copy;
  s->n[axis] = n;
  s->kind[axis] = kind;
  return MCP_OK;
}

/* ---- pricing the grid ------------------------------------------------------ */

/* Points priced on one run's normals: each adds a revaluation pass and its
 * columns to every job's tiles. */
#define MCPI_POINTS_PER_RUN 64

static size_t point(const mcp_scenario_results *r, size_t i, size_t j, size_t k)
{
  return (i * r->n[MCP_SHIFT_VOLATILITY] + j) * r->n[MCP_SHIFT_RATE] + k;
}

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

/* ---- reading the results --------------------------------------------------- */

size_t mcp_scenario_results_shifts(const mcp_scenario_results *r, mcp_shift_axis axis)
{
  return r && (unsigned)axis < MCPI_NAXES ? r->n[axis] : 0;
}

double mcp_scenario_results_shift(const mcp_scenario_results *r, mcp_shift_axis axis, size_t i)
{
  return r && (unsigned)axis < MCPI_NAXES && i < r->n[axis] ? r->shift[axis][i] : NAN;
}

mcp_shift_kind mcp_scenario_results_kind(const mcp_scenario_results *r, mcp_shift_axis axis)
{
  return r && (unsigned)axis < MCPI_NAXES ? r->kind[axis] : MCP_SHIFT_RELATIVE;
}

/* Trade ids and quantities are the same at every point: the first's. */
size_t mcp_scenario_results_count(const mcp_scenario_results *r)
{
  return r ? mcp_results_count(r->point[0]) : 0;
}

const char *mcp_scenario_results_trade_id(const mcp_scenario_results *r, size_t index)
{
  return r ? mcp_results_trade_id(r->point[0], index) : NULL;
}

double mcp_scenario_results_quantity(const mcp_scenario_results *r, size_t index)
{
  return r && index < mcp_results_count(r->point[0]) ? mcp_results_quantity(r->point[0], index)
                                                     : NAN;
}

mcp_status mcp_scenario_results_find(const mcp_scenario_results *r, const char *id,
                                     size_t *index)
{
  return r ? mcp_results_find(r->point[0], id, index) : MCP_ERR_ARGUMENT;
}

/* The results of point (i, j, k), or NULL outside the grid. */
static const mcp_results *at(const mcp_scenario_results *r, size_t i, size_t j, size_t k)
{
  return r && i < r->n[0] && j < r->n[1] && k < r->n[2] ? r->point[point(r, i, j, k)] : NULL;
}

mcp_status mcp_scenario_results_trade(const mcp_scenario_results *r, size_t index, size_t i,
                                      size_t j, size_t k, mcp_estimate *e)
{
  const mcp_results *p = at(r, i, j, k);
  return p && index < mcp_results_count(p) ? mcp_results_trade(p, index, e) : MCP_ERR_ARGUMENT;
}

mcp_status mcp_scenario_results_total(const mcp_scenario_results *r, size_t i, size_t j,
                                      size_t k, mcp_estimate *e)
{
  const mcp_results *p = at(r, i, j, k);
  return p ? mcp_results_total(p, e) : MCP_ERR_ARGUMENT;
}

void mcp_scenario_results_destroy(mcp_scenario_results *r)
{
  if (!r)
    return;
  size_t npoints = r->n[0] * r->n[1] * r->n[2];
  for (size_t p = 0; r->point && p < npoints; p++)
    mcp_results_destroy(r->point[p]);
  for (int a = 0; a < MCPI_NAXES; a++)
    free(r->shift[a]);
  free(r->point);
  free(r);
}

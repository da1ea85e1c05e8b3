/* scenario_results.c: reading a scenario grid's or set's results
 * (mcp_scenario_results). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/results/results.h"

static size_t point(const mcp_scenario_results *r, size_t i, size_t j, size_t k)
{
  return (i * r->n[MCP_SHIFT_VOLATILITY] + j) * r->n[MCP_SHIFT_RATE] + k;
}

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
  return r ? mcp_results_find(r->point[0], id, index) : mcpi_null(__func__, "results");
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
  return p && index < mcp_results_count(p)
             ? mcp_results_trade(p, index, e)
             : mcpi_error(MCP_ERR_ARGUMENT, "%s: no such point or trade %zu", __func__, index);
}

mcp_status mcp_scenario_results_total(const mcp_scenario_results *r, size_t i, size_t j,
                                      size_t k, mcp_estimate *e)
{
  const mcp_results *p = at(r, i, j, k);
  return p ? mcp_results_total(p, e)
           : mcpi_error(MCP_ERR_ARGUMENT, "%s: no point (%zu, %zu, %zu) in the grid", __func__,
                        i, j, k);
}

void mcp_scenario_results_destroy(mcp_scenario_results *r)
{
  if (!r)
    return;
  for (size_t p = 0; r->point && p < r->npoints; p++)
    mcp_results_destroy(r->point[p]);
  for (int a = 0; a < MCPI_NAXES; a++)
    free(r->shift[a]);
  for (size_t s = 0; r->name && s < r->nset; s++)
    free(r->name[s]);
  free(r->name);
  free(r->point);
  free(r);
}

/* ---- a set's ------------------------------------------------------------- */

size_t mcp_scenario_results_scenarios(const mcp_scenario_results *r) { return r ? r->nset : 0; }

const char *mcp_scenario_results_name(const mcp_scenario_results *r, size_t s)
{
  return r && s < r->nset ? r->name[s] : NULL;
}

/* The results of a set's point q: 0 its base, s + 1 its scenario s. */
static const mcp_results *set_point(const mcp_scenario_results *r, size_t q)
{
  return r && r->nset && q <= r->nset ? r->point[q] : NULL;
}

/* The results of a set's scenario s. */
static const mcp_results *scenario(const mcp_scenario_results *r, size_t s)
{
  return s < SIZE_MAX ? set_point(r, s + 1) : NULL;
}

mcp_status mcp_scenario_results_set_trade(const mcp_scenario_results *r, size_t index, size_t s,
                                          mcp_estimate *e)
{
  const mcp_results *p = scenario(r, s);
  return p && index < mcp_results_count(p)
             ? mcp_results_trade(p, index, e)
             : mcpi_error(MCP_ERR_ARGUMENT, "%s: no such point or trade %zu", __func__, index);
}

mcp_status mcp_scenario_results_set_total(const mcp_scenario_results *r, size_t s,
                                          mcp_estimate *e)
{
  const mcp_results *p = scenario(r, s);
  return p ? mcp_results_total(p, e)
           : mcpi_error(MCP_ERR_ARGUMENT, "%s: no scenario %zu in the set", __func__, s);
}

mcp_status mcp_scenario_results_base(const mcp_scenario_results *r, mcp_estimate *e)
{
  const mcp_results *p = set_point(r, 0);
  return p ? mcp_results_total(p, e)
           : mcpi_error(MCP_ERR_ARGUMENT, "%s: the results are not a scenario set's", __func__);
}

mcp_status mcp_scenario_results_base_trade(const mcp_scenario_results *r, size_t index,
                                           mcp_estimate *e)
{
  const mcp_results *p = set_point(r, 0);
  return p && index < mcp_results_count(p)
             ? mcp_results_trade(p, index, e)
             : mcpi_error(MCP_ERR_ARGUMENT, "%s: no such point or trade %zu", __func__, index);
}

mcp_status mcp_scenario_results_loss(const mcp_scenario_results *r, size_t s, mcp_estimate *e)
{
  const mcp_results *p = scenario(r, s);
  if (!p || !e)
    return mcpi_error(MCP_ERR_ARGUMENT, "%s: %s", __func__,
                      !e ? "loss is NULL" : "no such scenario in the set");
  *e = p->loss;
  return MCP_OK;
}

static int larger_first(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x < y) - (x > y);
}

mcp_status mcp_scenario_results_var(const mcp_scenario_results *r, double level, double *var,
                                    double *es)
{
  if (!r || !r->nset || !(level >= 0.5 && level < 1))
    return mcpi_error(MCP_ERR_ARGUMENT, "%s: %s", __func__,
                      !r         ? "results is NULL"
                      : !r->nset ? "the results are a grid's, not a scenario set's"
                                 : "expected a level from 0.5 to below 1");
  size_t n = r->nset;
  double *loss = malloc(n * sizeof *loss);
  if (!loss)
    return mcpi_no_memory(__func__);
  for (size_t s = 0; s < n; s++)
    loss[s] = r->point[s + 1]->loss.price;
  qsort(loss, n, sizeof *loss, larger_first);
  /* m scenarios' worth of tail: k whole ones and a share of the next */
  double m = (double)n * (1 - level);
  /* a level written in decimals (0.9 of 10 scenarios: 0.99999999999999978)
   * counts the whole scenarios it means; a tail never snaps to none */
  if (round(m) >= 1 && fabs(m - round(m)) <= 1e-9 * (double)n)
    m = round(m);
  size_t k = (size_t)floor(m); /* m <= n / 2: loss[k] is one */
  double tail = 0;
  for (size_t i = 0; i < k; i++)
    tail += loss[i];
  if (var)
    *var = loss[k];
  if (es)
    *es = (tail + (m - (double)k) * loss[k]) / m;
  free(loss);
  return MCP_OK;
}

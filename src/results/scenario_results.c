/* scenario_results.c: reading a scenario grid's results
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

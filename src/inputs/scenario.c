/* scenario.c: grids and sets of market shifts (mcp_scenarios); their run
 * is src/exec/grid.c, their results src/results/scenario_results.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/inputs/market.h"
#include "src/inputs/scenario.h"
#include "src/base/validate.h"
#include "src/base/grow.h"

mcp_status mcp_scenarios_create(mcp_scenarios **s)
{
  if (!s)
    return mcpi_null(__func__, "scenarios");
  *s = calloc(1, sizeof **s);
  if (!*s)
    return mcpi_no_memory(__func__);
  (*s)->kind[MCP_SHIFT_RATE] = MCP_SHIFT_ABSOLUTE;
  return MCP_OK;
}

void mcp_scenarios_destroy(mcp_scenarios *s)
{
  if (!s)
    return;
  for (int a = 0; a < MCPI_NAXES; a++)
    free(s->shift[a]);
  for (size_t i = 0; i < s->nset; i++) {
    for (size_t k = 0; k < s->set[i].n; k++)
      free(s->set[i].shift[k].underlying);
    free(s->set[i].shift);
    free(s->set[i].name);
  }
  free(s->set);
  free(s->tenor);
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

/* Why shift x of kind is refused, or NULL. */
static const char *bad_shift(mcp_shift_kind kind, double x)
{
  if (!isfinite(x))
    return "a finite number";
  return kind == MCP_SHIFT_RELATIVE && x <= -1 ? "a relative shift above -1" : NULL;
}

mcp_status mcp_scenarios_set(mcp_scenarios *s, mcp_shift_axis axis, mcp_shift_kind kind,
                             size_t n, const double *shifts)
{
  if (!s)
    return mcpi_null(__func__, "scenarios");
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
  if (s->nset)
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT,
                     "%s shifts: these scenarios are a set (mcp_scenarios_add), not a grid", name);
  if (n == 0 || !shifts || n * others > MCP_MAX_SCENARIOS)
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT,
                     "%s shifts: expected 1 to %zu shifts (at most %d scenarios in all), got %zu",
                     name, (size_t)MCP_MAX_SCENARIOS / others, MCP_MAX_SCENARIOS, n);
  for (size_t i = 0; i < n; i++) {
    const char *why = bad_shift(kind, shifts[i]);
    if (why)
      return mcpi_fail(s->err, MCP_ERR_ARGUMENT, "%s shifts[%zu]: expected %s, got %g", name, i,
                       why, shifts[i]);
  }
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

/* ---- sets --------------------------------------------------------------- */

size_t mcp_scenarios_count(const mcp_scenarios *s) { return s ? s->nset : 0; }

size_t mcpi_scenarios_points(const mcp_scenarios *s)
{
  if (s->nset)
    return s->nset + 1;
  size_t n = 1;
  for (int a = 0; a < MCPI_NAXES; a++)
    n *= mcpi_scenarios_shifts(s, a);
  return n;
}

/* Whether a grid's axis is set: then s takes no set's scenario. */
static int is_grid(const mcp_scenarios *s)
{
  return s->n[0] || s->n[1] || s->n[2];
}

mcp_status mcp_scenarios_set_kind(mcp_scenarios *s, mcp_shift_axis axis, mcp_shift_kind kind)
{
  if (!s)
    return mcpi_null(__func__, "scenarios");
  if ((unsigned)axis >= MCPI_NAXES || (kind != MCP_SHIFT_RELATIVE && kind != MCP_SHIFT_ABSOLUTE))
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT,
                     "scenario set kind: expected an axis (spot, volatility or rate) and "
                     "relative or absolute");
  if (is_grid(s) || s->nset)
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT,
                     "%s kind: expected it before the set's first scenario", mcpi_axis_name(axis));
  s->kind[axis] = kind;
  return MCP_OK;
}

mcp_status mcp_scenarios_add(mcp_scenarios *s, const char *name, size_t *index)
{
  if (!s)
    return mcpi_null(__func__, "scenarios");
  const char *why = mcpi_check_name(name);
  if (!why && strcmp(name, "base") == 0)
    why = "a name other than base (the unshifted market's row)";
  if (why)
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT, "scenario name: expected %s", why);
  if (is_grid(s))
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT,
                     "scenario '%s': these scenarios are a grid (mcp_scenarios_set), not a set",
                     name);
  for (size_t i = 0; i < s->nset; i++)
    if (strcmp(s->set[i].name, name) == 0)
      return mcpi_fail(s->err, MCP_ERR_ARGUMENT, "scenario '%s': expected a new name, got it twice",
                       name);
  if (s->nset >= MCP_MAX_SCENARIOS)
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT, "scenario '%s': expected at most %d scenarios",
                     name, MCP_MAX_SCENARIOS);
  if (!mcpi_grow((void **)&s->set, &s->set_cap, s->nset + 1, sizeof *s->set))
    return mcpi_fail(s->err, MCP_ERR_NO_MEMORY, "out of memory for the scenarios");
  mcpi_set_scenario *c = &s->set[s->nset];
  *c = (mcpi_set_scenario){strdup(name), NULL, 0, 0};
  if (!c->name)
    return mcpi_fail(s->err, MCP_ERR_NO_MEMORY, "out of memory for the scenarios");
  if (index)
    *index = s->nset;
  s->nset++;
  return MCP_OK;
}

/* Sets underlying's shift along axis (tenor: a key rate's, else 0) in
 * scenario c, replacing one given before. */
static mcp_status put_shift(mcp_scenarios *s, mcpi_set_scenario *c, const char *underlying,
                            mcp_shift_axis axis, size_t tenor, double x)
{
  for (size_t k = 0; k < c->n; k++)
    if (c->shift[k].axis == (int)axis && c->shift[k].tenor == tenor &&
        strcmp(c->shift[k].underlying, underlying) == 0) {
      c->shift[k].x = x;
      return MCP_OK;
    }
  if (!mcpi_grow((void **)&c->shift, &c->cap, c->n + 1, sizeof *c->shift))
    return mcpi_fail(s->err, MCP_ERR_NO_MEMORY, "out of memory for the scenarios");
  c->shift[c->n] = (mcpi_set_shift){strdup(underlying), (int)axis, x, tenor};
  if (!c->shift[c->n].underlying)
    return mcpi_fail(s->err, MCP_ERR_NO_MEMORY, "out of memory for the scenarios");
  c->n++;
  return MCP_OK;
}

mcp_status mcp_scenarios_shift(mcp_scenarios *s, size_t index, const char *underlying,
                               mcp_shift_axis axis, double shift)
{
  if (!s)
    return mcpi_null(__func__, "scenarios");
  if (index >= s->nset)
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT, "scenario %zu: expected one of the set's %zu",
                     index, s->nset);
  mcpi_set_scenario *c = &s->set[index];
  const char *why = mcpi_check_name(underlying);
  if (why)
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT, "scenario '%s': underlying: expected %s", c->name,
                     why);
  if ((unsigned)axis >= MCPI_NAXES)
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT,
                     "scenario '%s': axis: expected spot, volatility or rate", c->name);
  if ((why = bad_shift(s->kind[axis], shift)))
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT, "scenario '%s': %s %s shift: expected %s, got %g",
                     c->name, underlying, mcpi_axis_name(axis), why, shift);
  return put_shift(s, c, underlying, axis, 0, shift);
}

mcp_status mcpi_scenarios_set_tenors(mcp_scenarios *s, size_t n, const double *tenor)
{
  if (s->nset || s->ntenor || !n)
    return mcpi_fail(s->err, MCP_ERR_ARGUMENT,
                     "key-rate tenors: expected them once, before the set's first scenario");
  if (!(s->tenor = malloc(n * sizeof *s->tenor)))
    return mcpi_fail(s->err, MCP_ERR_NO_MEMORY, "out of memory for the scenarios");
  memcpy(s->tenor, tenor, n * sizeof *tenor);
  s->ntenor = n;
  return MCP_OK;
}

mcp_status mcpi_scenarios_shift_tenor(mcp_scenarios *s, size_t index, const char *underlying,
                                      size_t k, double x)
{
  return put_shift(s, &s->set[index], underlying, MCP_SHIFT_RATE, k + 1, x);
}

mcp_status mcpi_scenarios_key_shifts(const mcp_scenarios *s, size_t q, const mcp_market *base,
                                     mcp_market *m, char *err)
{
  const mcpi_set_scenario *c = &s->set[q - 1];
  for (size_t k = 0; k < c->n; k++) {
    if (!c->shift[k].tenor)
      continue;
    size_t i = (size_t)(mcpi_market_find(base, c->shift[k].underlying) - base->u);
    mcpi_curve moved = {0};
    if (mcpi_curve_key_shifted(&moved, &m->u[i].rate, s->tenor, s->ntenor,
                               c->shift[k].tenor - 1, c->shift[k].x) != MCP_OK)
      return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for a scenario");
    mcpi_curve_free(&m->u[i].rate);
    m->u[i].rate = moved;
  }
  return MCP_OK;
}

mcp_status mcpi_scenarios_set_point(const mcp_scenarios *s, size_t q, const mcp_market *m,
                                    double *x, char *err)
{
  memset(x, 0, m->n * MCPI_NAXES * sizeof *x);
  const mcpi_set_scenario *c = &s->set[q - 1];
  for (size_t k = 0; k < c->n; k++) {
    const mcpi_underlying *u = mcpi_market_find(m, c->shift[k].underlying);
    if (!u)
      return mcpi_fail(err, MCP_ERR_INPUT,
                       "scenario '%s': underlying '%s': expected an underlying of the market",
                       c->name, c->shift[k].underlying);
    if (!c->shift[k].tenor) /* key rates: mcpi_scenarios_key_shifts */
      x[(size_t)(u - m->u) * MCPI_NAXES + (size_t)c->shift[k].axis] = c->shift[k].x;
  }
  return MCP_OK;
}

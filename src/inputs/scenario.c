/* scenario.c: grids of market shifts (mcp_scenarios); their run is
 * src/exec/grid.c, their results src/results/scenario_results.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/inputs/market.h"
#include "src/inputs/scenario.h"
#include "src/base/validate.h"

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

/* scenario.h: scenario grids (internal view). */
#ifndef MCP_SCENARIO_H
#define MCP_SCENARIO_H

#include "src/inputs/market.h"

struct mcp_scenarios {
  size_t n[MCPI_NAXES];        /* 0: the axis is unset, the one shift 0 */
  double *shift[MCPI_NAXES];
  mcp_shift_kind kind[MCPI_NAXES];
  char err[MCPI_ERRLEN];
};

/* Shifts of an axis (1 when unset) and shift i (0 when unset). */
size_t mcpi_scenarios_shifts(const mcp_scenarios *s, int axis);
double mcpi_scenarios_shift(const mcp_scenarios *s, int axis, size_t i);

#endif

/* scenario.h: scenario grids and sets (internal view). */
#ifndef MCP_SCENARIO_H
#define MCP_SCENARIO_H

#include "src/inputs/market.h"

/* One shift of a set's scenario: underlying's value along axis. */
typedef struct mcpi_set_shift {
  char *underlying;
  int axis;
  double x;
  size_t tenor; /* a rate's: 0 parallel, else key rate tenor - 1 of the set */
} mcpi_set_shift;

/* A set's scenario: its name and its shifts. */
typedef struct mcpi_set_scenario {
  char *name;
  mcpi_set_shift *shift;
  size_t n, cap;
} mcpi_set_scenario;

struct mcp_scenarios {
  size_t n[MCPI_NAXES];        /* 0: the axis is unset, the one shift 0 */
  double *shift[MCPI_NAXES];
  mcp_shift_kind kind[MCPI_NAXES]; /* a grid's axes' and a set's */
  mcpi_set_scenario *set;      /* a set's scenarios (nset > 0), else a grid */
  size_t nset, set_cap;
  double *tenor;               /* a set's key-rate grid (mcpi_curve_key_shifted) */
  size_t ntenor;
  char err[MCPI_ERRLEN];
};

/* Shifts of an axis (1 when unset) and shift i (0 when unset). */
size_t mcpi_scenarios_shifts(const mcp_scenarios *s, int axis);
double mcpi_scenarios_shift(const mcp_scenarios *s, int axis, size_t i);
/* The points a run prices: a grid's, or a set's base and scenarios. */
size_t mcpi_scenarios_points(const mcp_scenarios *s);
/* The shifts of point q of a set (q >= 1) of market m into x, nund x
 * MCPI_NAXES (underlying i's along axis a at x[i MCPI_NAXES + a]; 0 where
 * the scenario names none); MCP_ERR_INPUT naming the scenario and the
 * underlying when m has no such underlying. */
mcp_status mcpi_scenarios_set_point(const mcp_scenarios *s, size_t q, const mcp_market *m,
                                    double *x, char *err);

/* The set's key-rate grid, n increasing tenors above 0, before its first
 * scenario; then a shift of underlying's zero rate at tenor[k] by x (the
 * others kept) in scenario index.  The regulatory view's rate deltas. */
mcp_status mcpi_scenarios_set_tenors(mcp_scenarios *s, size_t n, const double *tenor);
mcp_status mcpi_scenarios_shift_tenor(mcp_scenarios *s, size_t index, const char *underlying,
                                      size_t k, double x);
/* m, point q's market (q >= 1) of a set made with the parallel shifts,
 * given the key-rate shifts of that point over base's curves. */
mcp_status mcpi_scenarios_key_shifts(const mcp_scenarios *s, size_t q, const mcp_market *base,
                                     mcp_market *m, char *err);

#endif

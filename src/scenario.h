/* scenario.h: scenario grids and their results (internal view). */
#ifndef MCP_SCENARIO_H
#define MCP_SCENARIO_H

#include "error.h"
#include "mcprice.h"

#define MCPI_NAXES 3

struct mcp_scenarios {
  size_t n[MCPI_NAXES];        /* 0: the axis is unset, the one shift 0 */
  double *shift[MCPI_NAXES];
  mcp_shift_kind kind[MCPI_NAXES];
  char err[MCPI_ERRLEN];
};

struct mcp_scenario_results {
  size_t n[MCPI_NAXES];
  double *shift[MCPI_NAXES];
  mcp_shift_kind kind[MCPI_NAXES];
  mcp_results **point; /* point (i, j, k): its run's results */
};

/* "spot", "volatility" or "rate". */
const char *mcpi_axis_name(mcp_shift_axis axis);
/* Shifts of an axis (1 when unset) and shift i (0 when unset). */
size_t mcpi_scenarios_shifts(const mcp_scenarios *s, int axis);
double mcpi_scenarios_shift(const mcp_scenarios *s, int axis, size_t i);

/* A copy of market m with shift x[a] of kind[a] along each axis a (the spot
 * and volatility shifts on every underlying, or on underlying only alone when
 * only >= 0; the volatility and rate shifts where used[i] when used is not
 * NULL); MCP_ERR_INPUT naming the underlying when a value leaves its range. */
mcp_status mcpi_market_shifted(const mcp_market *m, const mcp_shift_kind *kind, const double *x,
                               long only, const unsigned char *used, mcp_market **out,
                               char *err);

/* Prices the portfolio in market into results[0] and, on the same normals,
 * in each of the n markets (which it takes over) into results[1 .. n]: every
 * point's prices are those of an mcp_price of its market, to the bit; as a
 * slice or a merge with sl (slice.h). */
struct mcpi_slicing;
mcp_status mcpi_price_points(mcp_context *ctx, const mcp_market *market,
                             const mcp_portfolio *portfolio, mcp_market **markets, size_t n,
                             mcp_results **results, const struct mcpi_slicing *sl);

#endif

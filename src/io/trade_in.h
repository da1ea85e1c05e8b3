/* trade_in.h: a trade object of a portfolio file as read
 * (load_portfolio.c), before it goes to mcp_portfolio_add_trade; the
 * product units (src/products/) read their own fields into it. */
#ifndef MCP_TRADE_IN_H
#define MCP_TRADE_IN_H

#include "src/io/load_json.h"
#include "src/inputs/portfolio.h"

/* Fields a product does not have keep the defaults of mcp_trade_init. */
typedef struct mcpi_trade_in {
  const char *id, *underlying;
  const char *assets[MCP_MAX_ASSETS];
  double weights[MCP_MAX_ASSETS];
  size_t nassets;
  int has_weights;
  int product, type, average, strike_kind, digital, barrier_kind, monitoring, methods, engine;
  double strike, maturity, quantity, cash, barrier, rebate;
  double notional, local_floor, local_cap, global_floor, global_cap;
  uint64_t best, window, exercises;
  int payoff;
  double autocall_level, coupon, coupon_barrier, knock_in;
  double *autocall_levels; /* one a fixing, or NULL */
  double initial[MCP_MAX_ASSETS];
  int has_initial; /* initial_fixings given */
  int memory;
  double *fix;
  size_t nfix;
  double *past; /* a seasoned trade's past fixings, or NULL */
  size_t npast;
  int knocked;
  double extremum; /* a seasoned lookback's on the bridge, or 0 */
} mcpi_trade_in;

#endif

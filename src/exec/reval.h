/* reval.h: the revaluation module (reval.c), which price, Greeks and
 * scenario grids share. */
#ifndef MCP_REVAL_H
#define MCP_REVAL_H

#include "src/slices/slice.h"

/* What a run computes beside the book's prices in its market: the Greeks
 * of a request (variants in bumped markets and estimators on the base
 * paths), or the book in each of npoints scenario markets (a variant each,
 * a revaluation pass over the base paths), or neither. */
typedef struct mcpi_reval {
  const mcp_greeks *greeks; /* or NULL */
  mcp_market **points;      /* taken over by the run (freed on failure too); or NULL */
  size_t npoints;
  int losses;               /* each point's book loss against the run's market too */
} mcpi_reval;

/* Runs the book in market and what asks for into out[0] and, for scenario
 * points, out[1 .. npoints] (each point's prices those of an mcp_price of
 * its market, to the bit; with losses, its loss, paired path by path): alone (sl NULL), as slice sl->k into sl->out
 * (out untouched), or as the merge of sl->in. */
mcp_status mcpi_reval_run(mcp_context *ctx, const mcp_market *market,
                          const mcp_portfolio *portfolio, const mcpi_reval *what,
                          mcp_results **out, const mcpi_slicing *sl);

/* A scenario grid's runs, a group of points each (grid.c). */
mcp_status mcpi_scenarios_run(mcp_context *ctx, const mcp_market *market,
                              const mcp_portfolio *portfolio, const mcp_scenarios *s,
                              mcp_scenario_results **results, const mcpi_slicing *sl);


#endif

/* scale.h: how one pricing runs: whole, or cut into slices spread over
 * devices (spread.c), processes (merge.c: slices and their merge) or MPI
 * ranks (mpi.c). */
#ifndef MCP_SCALE_H
#define MCP_SCALE_H

#include "src/exec/reval.h"

/* mcp_price_slice with a worker's kept setup (keep may be NULL). */
mcp_status mcpi_price_slice(mcp_context *ctx, const mcp_market *market,
                            const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                            const mcp_scenarios *scenarios, unsigned k, unsigned n,
                            mcpi_setup **keep, mcp_partial **partial);
/* mcp_partials_merge with a kept setup of the same pricing (keep may be
 * NULL). */
mcp_status mcpi_partials_merge(mcp_context *ctx, const mcp_market *market,
                               const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                               const mcp_scenarios *scenarios, mcp_partial *const *partials,
                               size_t count, mcpi_setup **keep, mcp_results **results,
                               mcp_scenario_results **scenario_results);
/* mcp_price, mcp_price_greeks (g) and mcp_price_scenarios (s, into
 * *sresults): one run, or with several devices (spread.c) slices of it on
 * each, merged. */
mcp_status mcpi_spread(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p,
                       const mcp_greeks *g, const mcp_scenarios *s, mcp_results **results,
                       mcp_scenario_results **sresults);

#endif

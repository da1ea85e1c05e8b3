/* scale.h: how one pricing runs: whole, or cut into slices spread over
 * devices (spread.c), processes (merge.c: slices and their merge) or MPI
 * ranks (mpi.c). */
#ifndef MCP_SCALE_H
#define MCP_SCALE_H

#include "src/exec/reval.h"

/* What the slices of one pricing in one process share: a worker's kept
 * setup (NULL: none kept) and the digest their partials carry (NULL: the
 * pricing's, computed by the call: it hashes every trade, about 1 ms for
 * 10,000 on one core). */
typedef struct mcpi_shared {
  mcpi_setup **keep;
  const uint64_t *digest;
} mcpi_shared;

/* mcp_price_slice with what its process's other slices share (sh may be
 * NULL). */
mcp_status mcpi_price_slice(mcp_context *ctx, const mcp_market *market,
                            const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                            const mcp_scenarios *scenarios, unsigned k, unsigned n,
                            const mcpi_shared *sh, mcp_partial **partial);
/* mcp_partials_merge with what the pricing's slices in this process
 * shared (sh may be NULL). */
mcp_status mcpi_partials_merge(mcp_context *ctx, const mcp_market *market,
                               const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                               const mcp_scenarios *scenarios, mcp_partial *const *partials,
                               size_t count, const mcpi_shared *sh, mcp_results **results,
                               mcp_scenario_results **scenario_results);
/* mcp_price, mcp_price_greeks (g) and mcp_price_scenarios (s, into
 * *sresults): one run, or with several devices (spread.c) slices of it on
 * each, merged. */
mcp_status mcpi_spread(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p,
                       const mcp_greeks *g, const mcp_scenarios *s, mcp_results **results,
                       mcp_scenario_results **sresults);

#endif
